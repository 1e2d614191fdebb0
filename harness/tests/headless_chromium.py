# SPDX-License-Identifier: MIT
"""A headless Chromium driven through the DevTools protocol over a pipe.

Why not `chromium --dump-dom` once per check: each start of the browser takes
7-8 s on the 2-core machine, and the page test needs a dozen looks at the page.
With --remote-debugging-pipe the browser reads JSON commands, each ended by a
NUL byte, on its fd 3 and answers on its fd 4: no websocket, no port, only the
standard library.  One browser serves a whole test module.
"""

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time


def find():
    """The chromium executable, or None (Debian's package 'chromium', 'make deps')."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, exe, profile_dir, timeout=60):
        self.timeout = timeout
        self.next_id = 0
        self.queue = []
        self.buf = b""
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # Above 10, so that moving them to 3 and 4 in the child clobbers neither.
        child_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        child_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)

        def fds_3_and_4():
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage",
             "--remote-debugging-pipe", "--user-data-dir=" + profile_dir, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds_3_and_4, pass_fds=(3, 4))
        os.close(child_r)
        os.close(child_w)
        self.wfd, self.rfd = to_browser_w, from_browser_r
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        target = pages[0]["targetId"] if pages else \
            self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=self.session)

    def _read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.rfd], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in %d s" % self.timeout)
            chunk = os.read(self.rfd, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe (exit %s)" % self.proc.poll())
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def _wait(self, pred):
        deadline = time.monotonic() + self.timeout
        while True:
            for m in self.queue:
                if pred(m):
                    self.queue.remove(m)
                    return m
            self.queue.append(self._read(deadline))

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        answer = self._wait(lambda m, i=self.next_id: m.get("id") == i)
        if "error" in answer:
            raise RuntimeError("%s: %s" % (method, answer["error"]))
        return answer["result"]

    def page(self, method, params=None):
        return self.call(method, params, session=self.session)

    def size(self, width, height):
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open(self, url):
        """Loads url as a new document (through about:blank, so that a change of
        the fragment alone is a load too) and waits for its load event."""
        for u in ("about:blank", url):
            self.queue = [m for m in self.queue if m.get("method") != "Page.loadEventFired"]
            self.page("Page.navigate", {"url": u})
            self._wait(lambda m: m.get("method") == "Page.loadEventFired"
                       and m.get("sessionId") == self.session)

    def eval(self, expression):
        r = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: %s" % json.dumps(r["exceptionDetails"]))
        return r["result"].get("value")

    def screenshot(self, path):
        data = self.page("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.wfd)
        os.close(self.rfd)
