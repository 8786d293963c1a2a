"""A camera for a page that has none: getUserMedia answered by a canvas's captureStream(), on
which the test paints the picture the camera sees (a QR code, or nothing), and the pictures to
paint: a screenshot of a code on another page, or a code drawn here by zxing-cpp.

STUB is a JS function's source, run in the page before it asks for the camera (an init script,
a preload script, or evaluated after boot: the page looks getUserMedia up when it scans). It
keeps what the page asked and the streams it got in window.__camera, so a test can check that
the rear camera was asked for and that every track was stopped.
"""

from __future__ import annotations

import base64
import io

import zxingcpp
from PIL import Image

STUB = r"""() => {
  if (window.__camera) return;
  const camera = window.__camera = { asked: [], streams: [], picture: null, refuse: null };
  const canvas = document.createElement("canvas");
  canvas.width = 640; canvas.height = 480;
  const paint = () => {  // a frame now and then: captureStream sends a frame per paint
    const context = canvas.getContext("2d");
    context.fillStyle = "#d8d8d8";
    context.fillRect(0, 0, canvas.width, canvas.height);
    if (camera.picture) context.drawImage(camera.picture, 140, 60, 360, 360);
  };
  camera.show = shown => {  // {width, height, gray: base64 of a byte a pixel}, or null
    camera.picture = null;
    if (!shown) return;
    const gray = Uint8Array.from(atob(shown.gray), c => c.charCodeAt(0));
    const pixels = new ImageData(shown.width, shown.height);
    gray.forEach((value, i) => pixels.data.set([value, value, value, 255], 4 * i));
    const picture = document.createElement("canvas");
    picture.width = shown.width; picture.height = shown.height;
    picture.getContext("2d").putImageData(pixels, 0, 0);
    camera.picture = picture;
  };
  camera.live = () => camera.streams.flatMap(s => s.getTracks())
    .filter(t => t.readyState === "live").length;
  if (!navigator.mediaDevices) return;  // no camera API: none is added
  navigator.mediaDevices.getUserMedia = async constraints => {
    camera.asked.push(JSON.parse(JSON.stringify(constraints)));
    if (camera.refuse) throw new DOMException("Permission denied", camera.refuse);
    paint();
    const stream = canvas.captureStream(10);
    const timer = setInterval(paint, 100);
    stream.getTracks().forEach(track => {
      const stop = track.stop.bind(track);
      track.stop = () => { clearInterval(timer); stop(); };
    });
    camera.streams.push(stream);
    return stream;
  };
}"""


def picture(image: Image.Image) -> dict:
    """What camera.show paints: the page's policy loads no data: or blob: image, so the pixels
    go over as they are, one gray byte each."""
    gray = image.convert("L")
    return {"width": gray.width, "height": gray.height,
            "gray": base64.b64encode(gray.tobytes()).decode("ascii")}


def png_picture(png: bytes) -> dict:
    return picture(Image.open(io.BytesIO(png)))


def code_picture(text: str) -> dict:
    """A QR code of `text`, drawn by zxing-cpp at error correction M."""
    code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    drawn = memoryview(code.to_image(scale=8, add_quiet_zones=True))
    return picture(Image.frombytes("L", (drawn.shape[1], drawn.shape[0]), drawn.tobytes()))
