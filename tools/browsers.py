"""Where the browsers are and how they start, for the tests, the benchmarks and the screenshots
alike. Standard library only.

Chromium runs headless through tools/chromium/launch (its heap profiler off: it crashes renderers
running Pyodide) with nothing beyond 127.0.0.1 resolvable. WebKitGTK's MiniBrowser runs on an
Xvfb display this module starts; Firefox ESR in a profile whose prefs keep it quiet and send every
other host to a proxy on this machine (the tests' trap, or a closed port).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CHROMIUM_PATHS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")


def find_chromium(python: str = sys.executable) -> str | None:
    """CHROMIUM_PATH, then Debian's Chromium, then a browser Playwright installed itself."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), *CHROMIUM_PATHS):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    probe = ("from playwright.sync_api import sync_playwright\n"
             "with sync_playwright() as p: print(p.chromium.executable_path)")
    found = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    path = found.stdout.strip()
    return path if found.returncode == 0 and path and os.access(path, os.X_OK) else None


# How the tests and benchmarks run Chromium: headless here, nothing beyond 127.0.0.1 resolvable.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
]
CHROMIUM_LAUNCHER = Path(__file__).resolve().parent / "chromium" / "launch"


def chromium_launch_args(chromium: str, log: Path | None = None) -> dict:
    """Playwright's launch options for `chromium`, started through tools/chromium/launch: its
    heap profiler off (it crashes renderers running Pyodide), its log appended to `log` if given."""
    env = {**os.environ, "SKILLCHECK_CHROMIUM": chromium}
    if log is not None:
        env["SKILLCHECK_CHROMIUM_LOG"] = str(log)
    return {"executable_path": str(CHROMIUM_LAUNCHER), "args": CHROMIUM_ARGS, "env": env}


# The other engines of the cross-engine set (tests/e2e/test_engines.py): WebKitGTK's MiniBrowser
# driven by WebKitWebDriver under Xvfb, and Firefox ESR over the WebDriver BiDi it speaks itself.
# program: (environment variable that overrides, Debian's paths, the Debian package that brings it)
ENGINE_PROGRAMS = {
    "webkit_driver": ("WEBKIT_DRIVER", ("/usr/bin/WebKitWebDriver",), "webkit2gtk-driver"),
    "minibrowser": ("MINIBROWSER", tuple(f"/usr/lib/{arch}/webkit2gtk-4.1/MiniBrowser" for arch in (
        "x86_64-linux-gnu", "aarch64-linux-gnu")), "webkit2gtk-driver"),
    "xvfb": ("XVFB", ("/usr/bin/Xvfb",), "xvfb"),
    "firefox": ("FIREFOX_PATH", ("/usr/bin/firefox-esr", "/usr/bin/firefox"), "firefox-esr"),
}


def find_engines() -> tuple[dict[str, str], list[str]]:
    """({program: path} found, [Debian packages to install for the ones missing])."""
    found, missing = {}, []
    for program, (variable, paths, package) in ENGINE_PROGRAMS.items():
        path = next((p for p in (os.environ.get(variable), *paths) if p and os.access(p, os.X_OK)),
                    None)
        if path:
            found[program] = path
        elif package not in missing:
            missing.append(package)
    return found, missing


def start_xvfb(xvfb: str = "Xvfb") -> tuple[subprocess.Popen, str]:
    """An Xvfb on a free display, for WebKitGTK: (its process, ":N"). RuntimeError if it fails."""
    read, write = os.pipe()
    process = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                "-nolisten", "tcp"], pass_fds=(write,),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        process.kill()
        raise RuntimeError(f"{xvfb} did not start")
    return process, f":{number}"


LOCAL_HOSTS = ("127.0.0.1", "localhost")
# Firefox ESR, quiet: no first-run pages, updates, telemetry nor background checks.
FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.enabled": False,
    "app.normandy.enabled": False,
    "extensions.update.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True,
}


def firefox_profile(profile: Path, proxy_port: int) -> None:
    """Write `profile`/user.js: FIREFOX_PREFS, and every host but LOCAL_HOSTS sent to the proxy
    on 127.0.0.1:`proxy_port` (the tests' trap records what it is asked; a closed port refuses)."""
    prefs = {**FIREFOX_PREFS, "network.proxy.type": 1,  # manual
             "network.proxy.http": "127.0.0.1", "network.proxy.http_port": proxy_port,
             "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": proxy_port,
             "network.proxy.no_proxies_on": ", ".join(LOCAL_HOSTS)}
    (profile / "user.js").write_text("".join(
        f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in prefs.items()),
        encoding="utf-8")
