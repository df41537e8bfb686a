"""A headless Chromium driven over the DevTools protocol, just enough for the dashboard tests.

Why not Selenium or Playwright: both need a driver or a browser download. Debian's
`chromium` plus `websocket-client` is all this needs, and CI installs the same.
The browser is cut off from the network (flags + CDP offline emulation); every
request it tries is recorded so a test can assert the page asked for nothing.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websocket

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--no-default-browser-check",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--remote-debugging-port=0",
    "--remote-allow-origins=*", "--window-size=1500,1000",
]


def chromium_path() -> str | None:
    return shutil.which("chromium")


class Browser:
    """One Chromium process with one page; use as a context manager."""

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = Path(tempfile.mkdtemp(prefix="dash-chromium-"))
        self.proc = subprocess.Popen(
            [chromium_path() or "chromium", *FLAGS, f"--user-data-dir={self.profile}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port = self._port()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
            page = next(t for t in json.load(r) if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=timeout)
        self._id = 0
        self.events: list[dict] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.send("Network.emulateNetworkConditions", offline=True, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)

    def _port(self) -> int:
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if marker.exists() and marker.read_text().strip():
                return int(marker.read_text().split()[0])
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port")

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.ws.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method: str, **params: Any) -> dict:
        """Call a CDP method and wait for its answer; events seen meanwhile are kept."""
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression: str, await_promise: bool = True) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, ready: str = "window.dashboard && window.dashboard.ready") -> None:
        """Navigate and wait until `ready` (a promise or value) resolves."""
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.evaluate("document.readyState") == "complete":
                break
            time.sleep(0.05)
        self.evaluate(f"Promise.resolve({ready}).then(() => true)")

    def key(self, key: str, code: str | None = None, key_code: int = 0) -> None:
        """Press and release one key (Tab, Enter) as the keyboard would."""
        for kind in ("rawKeyDown", "keyUp"):
            params = {"type": kind, "key": key, "code": code or key,
                      "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code}
            if kind == "rawKeyDown" and key == "Enter":
                params["text"] = "\r"
            self.send("Input.dispatchKeyEvent", **params)
        if key == "Enter":
            self.send("Input.dispatchKeyEvent", type="char", key="Enter", text="\r")

    def click(self, x: float, y: float) -> None:
        """A real left click at page coordinates (the viewport is scrolled there first)."""
        self.evaluate(f"window.scrollTo(0, {max(0.0, y - 300)})")
        top = self.evaluate("window.scrollY")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y - top, button="left",
                      clickCount=1)

    def screenshot(self, path: Path, selector: str | None = None) -> Path:
        """Full-page PNG, or just the element `selector` matches."""
        height = self.evaluate("document.documentElement.scrollHeight")
        self.send("Emulation.setDeviceMetricsOverride", width=1500, height=int(height),
                  deviceScaleFactor=1, mobile=False)
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if selector:
            box = self.evaluate(f"""(() => {{
                const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();
                return {{x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}};
            }})()""")
            params["clip"] = {**box, "scale": 1}
        data = self.send("Page.captureScreenshot", **params)
        self.send("Emulation.clearDeviceMetricsOverride")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data["data"]))
        return path

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                args = params["args"]
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in args))
            elif method == "Runtime.exceptionThrown":
                out.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(params["entry"]["text"])
        return out

    def requests(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events
                if e.get("method") == "Network.requestWillBeSent"]
