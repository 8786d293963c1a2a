"""Cold loads timed alike in Chromium, Firefox ESR and WebKitGTK, with no WebDriver client at all.

Playwright drives only Chromium here (its Firefox and WebKit are patched builds it would download).
So each load starts the engine itself, as a process with a profile of its own (a cold start: no
cache, no service worker) on the page's address; `timings.js`, which the benchmark puts first in
the page's <head>, times the page from inside and POSTs its figures to the server that serves it;
then the process group is ended. Where the engines are and how they start (Xvfb, Firefox's
profile, Chromium's launcher) is tools/browsers.py's, shared with the cross-engine e2e tests.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path

import build
from tools import browsers

ENGINES = ("chromium", "firefox", "webkit")
REPORT_PATH = "/__timings"
SCRIPT = "timings.js"
CLOSED_PORT = 9  # Firefox's proxy for every other host: nothing answers, nothing leaves

# One roll on a booted app, timed in the page (here and in startup.py's Chromium runs): the roll
# button clicked, the result's last change ({dom} ms after) and the frame after it ({frame}).
TIME_ROLL = """async (wait) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const result = document.querySelector("#result");
  let last = null;
  const watch = new MutationObserver(() => { last = performance.now(); });
  watch.observe(result, { childList: true, subtree: true, characterData: true });
  const start = performance.now();
  document.querySelector("#roll").click();
  await null; // the observer's microtask: a synchronous handler has rendered by now
  const limit = start + wait;
  while (last === null && performance.now() < limit) await frame();
  await frame();
  const painted = performance.now();
  watch.disconnect();
  return last === null ? null : { dom: last - start, frame: painted - start };
}"""

# In the page, before anything else: when <html data-ready> appears; then, in the app, one roll
# (click → the result's last change → the next frame), as a player's first roll after ready.
TIMINGS = """(() => {
  const marks = { ready: null, roll: null, boot: null, engine: navigator.userAgent };
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const send = () => fetch("REPORT_PATH", { method: "POST", body: JSON.stringify(marks) });
  const timeRoll = TIME_ROLL;
  async function roll() {
    if (!document.querySelector("#roll")) return send();
    for (let i = 0; i < 2; i++) await frame();
    const timed = await timeRoll(10000);
    marks.roll = timed && timed.frame;
    send();
  }
  new MutationObserver((changes, observer) => {
    const html = document.documentElement;
    if (marks.ready === null && html && html.dataset.ready === "true") {
      marks.ready = performance.now();
      marks.boot = html.dataset.boot || null;
      observer.disconnect();
      roll();
    }
  }).observe(document, { attributes: true, attributeFilter: ["data-ready"], subtree: true });
})();
""".replace("REPORT_PATH", REPORT_PATH).replace("TIME_ROLL", TIME_ROLL)

class Reporting(build.Handler):
    """build.py's handler, plus the endpoint the page's timings arrive at."""

    def do_POST(self) -> None:  # noqa: N802 - the base class's naming
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        if self.path.endswith(REPORT_PATH):
            self.server.reports.put(json.loads(body))


def instrument(site: Path) -> None:
    """Put timings.js first in the site's page (an external script: the app's CSP allows 'self')."""
    (site / SCRIPT).write_text(TIMINGS, encoding="utf-8")
    for page in site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        page.write_text(html.replace("<head>", f'<head><script src="{SCRIPT}"></script>', 1),
                        encoding="utf-8")


def serve(stack: ExitStack, root: Path) -> tuple[str, queue.Queue]:
    server = build.Server(root)
    server.RequestHandlerClass = Reporting
    server.reports = queue.Queue()
    stack.callback(server.close)
    return server.start().url, server.reports


NEEDS = {"chromium": (), "firefox": ("firefox",), "webkit": ("minibrowser", "xvfb")}


def missing(engine: str) -> str | None:
    """Why `engine` cannot run here (with how to install it), or None."""
    if engine == "chromium":
        return None if browsers.find_chromium() else "no chromium here: apt-get install chromium"
    programs, packages = browsers.find_engines()
    if all(program in programs for program in NEEDS[engine]):
        return None
    return f"no {engine} here: apt-get install {' '.join(packages)}"


class Launcher:
    """Starts one engine on a URL in a fresh profile; one Xvfb display shared by WebKit's loads."""

    def __init__(self, stack: ExitStack, engine: str):
        self.engine, self.stack, self.display = engine, stack, None
        self.programs = browsers.find_engines()[0]
        if engine == "webkit":
            xvfb, self.display = browsers.start_xvfb(self.programs["xvfb"])
            stack.callback(lambda: (xvfb.terminate(), xvfb.wait()))

    def command(self, url: str, profile: Path) -> tuple[list[str], dict]:
        env = dict(os.environ)
        if self.engine == "chromium":
            options = browsers.chromium_launch_args(browsers.find_chromium())
            return ([options["executable_path"], *options["args"], "--headless=new",
                     f"--user-data-dir={profile}", url], {**env, **options["env"]})
        if self.engine == "firefox":
            browsers.firefox_profile(profile, CLOSED_PORT)
            env["MOZ_HEADLESS"] = "1"
            return ([self.programs["firefox"], "--headless", "--no-remote", "--new-instance",
                     "--profile", str(profile), url], env)
        env.update(DISPLAY=self.display, WEBKIT_DISABLE_COMPOSITING_MODE="1")
        env.pop("WAYLAND_DISPLAY", None)
        return [self.programs["minibrowser"], "--private", url], env

    def load(self, url: str, reports: queue.Queue, timeout: float = 300) -> dict | None:
        """The page's timings from one cold start, or None if it sent none within `timeout` s."""
        with tempfile.TemporaryDirectory(prefix=f"engine-{self.engine}-") as profile:
            command, env = self.command(url, Path(profile))
            process = subprocess.Popen(command, env=env, start_new_session=True,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                return reports.get(timeout=timeout)
            except queue.Empty:
                return None
            finally:
                os.killpg(process.pid, signal.SIGKILL)  # the group this Popen made, nothing else
                process.wait()
