#!/usr/bin/env python3
"""MIGA's benchmark for sites: the pause in the browser tab, beside baselines
measured in the same run. Prints medians; asserts nothing.

    python3 Benchmarks/sites.py .build/release/miga .build/extension/chromium

- native host, start to first answer: from spawning `miga-native-host` (a
  link to the binary, as the browser starts it, with the extension's
  origin) to its answer to a framed {"type":"rules"}, against spawning
  /bin/true and reading its end; and to the first state of a pause asked
  for a protected site's address (what the pause page waits for).
- native host, peak memory: the maximum resident set size GNU time reports
  for the same conversation.
- navigation: in one headless Chromium (Debian's) with the extension, from
  asking the tab to open an address to the page's words being there: a
  plain page of a local site, against a protected site's address, whose
  words are the pause page's quote. Rounds alternate between the two.
"""
import base64
import json
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHROMIUM_ORIGIN = "chrome-extension://cbgolgnocihlfhpkfbbocelojnaodpbo/"


def framed(message):
    body = json.dumps(message).encode()
    return struct.pack("=I", len(body)) + body


def host_answer_ms(host, env, message):
    """Spawn to the first answer, and the answer's type."""
    started = time.perf_counter()
    process = subprocess.Popen([host, CHROMIUM_ORIGIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    process.stdin.write(framed(message))
    process.stdin.flush()
    (length,) = struct.unpack("=I", process.stdout.read(4))
    answer = json.loads(process.stdout.read(length))
    elapsed = (time.perf_counter() - started) * 1000
    process.stdin.close()
    process.wait()
    return elapsed, answer.get("type")


def true_ms():
    started = time.perf_counter()
    subprocess.run(["/bin/true"])
    return (time.perf_counter() - started) * 1000


def host_peak_memory_mb(host, env):
    """GNU time's maximum resident set size of one conversation, in MB."""
    with tempfile.NamedTemporaryFile() as report:
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report.name, host, CHROMIUM_ORIGIN],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        process.communicate(framed({"type": "rules"}))
        return int(open(report.name).read().split()[-1]) / 1000


class DevTools:
    """The least of a WebSocket client the DevTools protocol needs: text
    frames, masked from the client, unfragmented from the browser."""

    def __init__(self, url):
        host, path = url[len("ws://"):].split("/", 1)
        name, port = host.split(":")
        self.sock = socket.create_connection((name, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(1)
        self.next_id = 0

    def _read(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed")
            data += chunk
        return data

    def _frame(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack(">H", self._read(2))
        elif length == 127:
            (length,) = struct.unpack(">Q", self._read(8))
        return first & 0x0F, self._read(length)

    def call(self, method, **params):
        self.next_id += 1
        body = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        header = bytes([0x81]) + (bytes([0x80 | len(body)]) if len(body) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(body)))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(body)))
        while True:
            opcode, payload = self._frame()
            if opcode == 1:
                message = json.loads(payload)
                if message.get("id") == self.next_id:
                    return message.get("result", {})

    def words(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


class Page(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>plain</title><p id=words>A plain page of a local site.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def navigation_rows(binary, extension, runs):
    root = tempfile.mkdtemp(prefix="miga-bench-sites-")
    home = root + "/home"
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share"}
    subprocess.run([binary, "protect", "--site", "site.example", "--pause", "30"], env=env,
                   stdout=subprocess.DEVNULL, check=True)
    host = root + "/miga-native-host"
    os.symlink(binary, host)
    user_data = root + "/chromium"
    os.makedirs(user_data + "/NativeMessagingHosts")
    with open(user_data + "/NativeMessagingHosts/miga.json", "w") as manifest:
        json.dump({"name": "miga", "description": "MIGA", "path": host, "type": "stdio",
                   "allowed_origins": [CHROMIUM_ORIGIN]}, manifest)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    browser = subprocess.Popen([
        "/usr/bin/chromium", "--headless=new", "--no-sandbox", f"--user-data-dir={user_data}",
        "--remote-debugging-port=0", f"--load-extension={extension}", "--no-first-run", "--disable-gpu",
        "--disable-features=DisableLoadExtensionCommandLineSwitch,HttpsUpgrades",
        f"--host-resolver-rules=MAP site.example 127.0.0.1:{port}, MAP plain.example 127.0.0.1:{port}", "about:blank",
    ], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while not os.path.exists(user_data + "/DevToolsActivePort") and time.monotonic() < deadline:
            time.sleep(0.05)
        devtools_port = int(open(user_data + "/DevToolsActivePort").read().split()[0])
        request = urllib.request.Request(f"http://127.0.0.1:{devtools_port}/json/new?about:blank", method="PUT")
        tab = json.load(urllib.request.urlopen(request))
        devtools = DevTools(tab["webSocketDebuggerUrl"])

        def shown(url, expression):
            started = time.perf_counter()
            devtools.call("Page.navigate", url=url)
            while time.perf_counter() - started < 30:
                if devtools.words(expression):
                    return (time.perf_counter() - started) * 1000
            raise TimeoutError(f"{url} showed nothing")

        plain_words = "location.host === 'plain.example' && !!document.getElementById('words')"
        pause_words = ("location.protocol === 'chrome-extension:' && "
                       "(document.getElementById('verses')?.textContent ?? '').length > 0")
        # The extension takes its rules from the host once it starts: wait for a pause to show once.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                shown("http://site.example/warm-up", pause_words)
                break
            except TimeoutError:
                continue
        plain, paused = [], []
        for index in range(runs + 3):
            one = shown(f"http://plain.example/page?n={index}", plain_words)
            two = shown(f"http://site.example/watch?v={index}", pause_words)
            if index >= 3:
                plain.append(one)
                paused.append(two)
        return plain, paused
    finally:
        browser.terminate()
        browser.wait()
        server.shutdown()
        shutil.rmtree(root, ignore_errors=True)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/miga")
    extension = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else ".build/extension/chromium")
    runs = int(os.environ.get("MIGA_BENCH_SITE_RUNS", "30"))
    home = tempfile.mkdtemp(prefix="miga-bench-host-")
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"}
    host = home + "/miga-native-host"
    os.symlink(binary, host)
    subprocess.run([binary, "protect", "--site", "site.example", "--pause", "30"], env=env,
                   stdout=subprocess.DEVNULL, check=True)
    answers, pauses, trues = [], [], []
    for index in range(runs * 2 + 3):
        elapsed, kind = host_answer_ms(host, env, {"type": "rules"})
        paused, state = host_answer_ms(host, env, {"type": "pause", "url": "https://site.example/watch?v=1"})
        if (kind, state) != ("rules", "state"):
            raise SystemExit(f"the host answered {kind!r} and {state!r}, not the rules and a pause")
        baseline = true_ms()
        if index >= 3:
            answers.append(elapsed)
            pauses.append(paused)
            trues.append(baseline)
    memory = max(host_peak_memory_mb(host, env) for _ in range(5))
    shutil.rmtree(home, ignore_errors=True)

    print(f"| {'sites':<44} | {'median':>9} | {'p90':>9} |")
    print(f"|{'-' * 46}|{'-' * 11}|{'-' * 11}|")

    def row(name, values):
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"| {name:<44} | {statistics.median(values):6.2f} ms | {p90:6.2f} ms |")

    row("/bin/true", trues)
    row("native host, start to the rules' answer", answers)
    row("native host, start to a pause's first state", pauses)
    if shutil.which("chromium") and os.path.isdir(extension):
        plain, paused = navigation_rows(binary, extension, runs)
        row("navigation, a plain local page shown", plain)
        row("navigation, a protected site's pause shown", paused)
        print()
        print(f"pause page against a plain page: {statistics.median(paused) - statistics.median(plain):+.2f} ms "
              f"(target <= 100 ms more)")
    else:
        print()
        print("navigation: not measured (no chromium, or no built extension: make extension)")
    print(f"native host: {statistics.median(answers):.2f} ms from start to its first answer (target <= 20 ms), "
          f"{statistics.median(answers) - statistics.median(trues):.2f} ms over /bin/true; "
          f"peak memory {memory:.1f} MB (target <= 20 MB)")


if __name__ == "__main__":
    main()
