"""Cold loads timed alike in Chromium, Firefox ESR and WebKitGTK, with no WebDriver client at all.

Playwright drives only Chromium here (its Firefox and WebKit are patched builds it would download).
So each load starts the engine itself, as a process with a profile of its own (a cold start: no
cache, no service worker) on the page's address; `timings.js`, which the benchmark puts first in
the page's <head>, times the page from inside and POSTs its figures to the server that serves it;
then the process group is ended. The cross-engine e2e tests drive these engines through WebDriver:
after both land, this could share their launcher; the timing stays in the page either way.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path

import build

ENGINES = ("chromium", "firefox", "webkit")
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
REPORT_PATH = "/__timings"
SCRIPT = "timings.js"
INSTALL = {"chromium": "apt-get install chromium", "firefox": "apt-get install firefox-esr",
           "webkit": "apt-get install webkit2gtk-driver xvfb (MiniBrowser comes with WebKitGTK)"}

# In the page, before anything else: when <html data-ready> appears; then, in the app, one roll
# (click → the result's last change → the next frame), as a player's first roll after ready.
TIMINGS = """(() => {
  const marks = { ready: null, roll: null, boot: null, engine: navigator.userAgent };
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const send = () => fetch("REPORT_PATH", { method: "POST", body: JSON.stringify(marks) });
  async function roll() {
    const button = document.querySelector("#roll");
    if (!button) return send();
    for (let i = 0; i < 2; i++) await frame();
    const result = document.querySelector("#result");
    let last = null;
    const watch = new MutationObserver(() => { last = performance.now(); });
    watch.observe(result, { childList: true, subtree: true, characterData: true });
    const start = performance.now();
    button.click();
    const limit = start + 10000;
    while (last === null && performance.now() < limit) await frame();
    await frame();
    watch.disconnect();
    marks.roll = last === null ? null : performance.now() - start;
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
""".replace("REPORT_PATH", REPORT_PATH)

FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False, "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False, "app.update.enabled": False,
    "app.normandy.enabled": False, "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False, "browser.newtabpage.enabled": False,
    # Everything but 127.0.0.1 goes to a closed local port: nothing leaves this machine.
    "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": "127.0.0.1", "network.dns.disablePrefetch": True,
}


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


def missing(engine: str) -> str | None:
    """Why `engine` cannot run here (with how to install it), or None."""
    found = {"chromium": build.find_chromium(), "firefox": shutil.which("firefox-esr"),
             "webkit": os.access(MINIBROWSER, os.X_OK) and shutil.which("Xvfb")}[engine]
    return None if found else f"no {engine} here: {INSTALL[engine]}"


class Launcher:
    """Starts one engine on a URL in a fresh profile; one Xvfb display shared by WebKit's loads."""

    def __init__(self, stack: ExitStack, engine: str):
        self.engine, self.stack, self.display = engine, stack, None
        if engine == "webkit":
            self.display = self._xvfb()

    def _xvfb(self) -> str:
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24",
                                 "-nolisten", "tcp"], pass_fds=(write,),
                                stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        self.stack.callback(lambda: (xvfb.terminate(), xvfb.wait()))
        return f":{number}"

    def command(self, url: str, profile: Path) -> tuple[list[str], dict]:
        env = dict(os.environ)
        if self.engine == "chromium":
            env["SKILLCHECK_CHROMIUM"] = build.find_chromium()
            return ([str(build.CHROMIUM_LAUNCHER), *build.CHROMIUM_ARGS, "--headless=new",
                     f"--user-data-dir={profile}", url], env)
        if self.engine == "firefox":
            prefs = "".join(f'user_pref("{name}", {json.dumps(value)});\n'
                            for name, value in FIREFOX_PREFS.items())
            (profile / "user.js").write_text(prefs, encoding="utf-8")
            env["MOZ_HEADLESS"] = "1"
            return (["firefox-esr", "--headless", "--no-remote", "--new-instance",
                     "--profile", str(profile), url], env)
        env.update(DISPLAY=self.display, WEBKIT_DISABLE_COMPOSITING_MODE="1")
        env.pop("WAYLAND_DISPLAY", None)
        return [MINIBROWSER, "--private", url], env

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
