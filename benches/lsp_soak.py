#!/usr/bin/env python3
"""Soak test of `hsir lsp` over stdio: many random edits to one document, memory on the way.

  benches/lsp_soak.py [--server PATH] [--file F.mlir | --bytes 38k] [--edits 10000] [--seed 1]

The edits (one per didChange, sent without waiting) insert and delete multi-byte characters
(é, 😀, e + combining U+0301), CRLF and LF line ends, and IR pieces, at random valid
positions (never between a CR and its LF), some across lines; every 50th edit is followed by
a hover and every 500th by a documentSymbol request. At 100, 1,000 and 10,000 edits (and every
checkpoint given by --at) the client waits for the diagnostics of that version, lets the
server be idle for a second, and reads its VmRSS. At the end it compares the server's
diagnostics with those of a fresh server opened on the same text, and the server's text
(hsir/test/text) with its own. Exit status 1 if they differ. Stdlib only.
"""
import argparse
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PIECES = ["\u00e9", "\U0001F600", "e\u0301", "\r\n", "\n", " ", "%x", "{", "}", "<", ">",
          ":", "=", "// \u00e9\U0001F600\n", "{a = \U0001F600}", "%v = fork [2] %a : <i32>\n"]


class Server:
    def __init__(self, path):
        env = dict(os.environ, HSIR_TEST_HOOKS="1")
        self.p = subprocess.Popen([path, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.q = queue.Queue()
        self.next_id = 1
        self.diagnostics = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.p.stdout
        while True:
            length = None
            while True:
                line = f.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = b""
            while len(body) < length:
                chunk = f.read(length - len(body))
                if not chunk:
                    return
                body += chunk
            self.q.put(json.loads(body))

    def send(self, message):
        body = json.dumps(message).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def wait(self, pred, timeout=120):
        deadline = time.time() + timeout
        while True:
            m = self.q.get(timeout=max(0.01, deadline - time.time()))
            if m.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics[m["params"]["uri"]] = m["params"]
            if m.get("method") and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            if pred(m):
                return m

    def drain(self):
        try:
            while True:
                self.wait(lambda m: False, timeout=0.01)
        except queue.Empty:
            pass

    def initialize(self):
        rid = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.wait(lambda m: m.get("id") == rid)
        self.notify("initialized", {})

    def rss_kb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        rid = self.request("shutdown", None)
        try:
            self.wait(lambda m: m.get("id") == rid, timeout=30)
        except queue.Empty:
            pass
        self.notify("exit", None)
        self.p.wait(timeout=30)


def position(text, offset):
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return {"line": line, "character": len(before[start:].encode("utf-16-le")) // 2}


def valid(text, at):
    return not (0 < at < len(text) and text[at - 1] == "\r" and text[at] == "\n")


def boundary(text, rng):
    at = rng.randrange(len(text) + 1)
    while not valid(text, at):
        at -= 1
    return at


def random_edit(text, rng):
    start = boundary(text, rng)
    kind = rng.randrange(6)
    if kind <= 2:
        end = start
    elif kind == 3:
        end = min(len(text), start + 1 + rng.randrange(4))
    elif kind == 4:
        nl = text.find("\n", start)
        end = len(text) if nl < 0 else nl
    else:
        end = min(len(text), start + rng.randrange(200))
    while not valid(text, end):
        end -= 1
    end = max(end, start)
    new = "" if (kind in (3, 4, 5) and rng.randrange(3) == 0) else \
        "".join(rng.choice(PIECES) for _ in range(1 + rng.randrange(3)))
    return start, end, new


def settle(server, uri, version):
    if server.diagnostics.get(uri, {}).get("version") != version:
        server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri and m["params"].get("version") == version)
    # Idle for a second: the server gives memory back after half a second without requests.
    time.sleep(1.0)
    server.drain()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(HERE, "..", "target"))
    ap.add_argument("--server", default=os.path.join(target, "release", "hsir"))
    ap.add_argument("--file")
    ap.add_argument("--bytes", default="38k")
    ap.add_argument("--edits", type=int, default=10000)
    ap.add_argument("--at", default="100,1000,10000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-requests", action="store_true", help="edits only")
    args = ap.parse_args()
    if args.file:
        text = open(args.file, encoding="utf-8", newline="").read()
    else:
        gen = os.path.join(HERE, "..", "..", "shared", "tools", "gen_handshake.py")
        text = subprocess.run([sys.executable, gen, "--target-bytes", args.bytes, "--ops", "60",
                               "--seed", str(args.seed)], check=True, capture_output=True,
                              text=True).stdout
    checkpoints = sorted({int(a) for a in args.at.split(",") if int(a) <= args.edits} | {args.edits})
    rng = random.Random(args.seed)
    uri = "file:///soak.mlir"
    server = Server(args.server)
    server.initialize()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir",
                                                            "version": 0, "text": text}})
    settle(server, uri, 0)
    print(f"file: {len(text.encode())} bytes; server {args.server}")
    print(f"{'edits':>7} {'requests':>9} {'VmRSS (MB)':>11} {'seconds':>8}")
    print(f"{0:>7} {0:>9} {server.rss_kb() / 1024:>11.1f} {0:>8.1f}")
    started = time.time()
    requests = 0
    figures = {}
    for version in range(1, args.edits + 1):
        start, end, new = random_edit(text, rng)
        change = {"range": {"start": position(text, start), "end": position(text, end)}, "text": new}
        text = text[:start] + new + text[end:]
        server.notify("textDocument/didChange",
                      {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        if version % 50 == 0 and not args.no_requests:
            server.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": position(text, boundary(text, rng))})
            requests += 1
        if version % 500 == 0 and not args.no_requests:
            server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
            requests += 1
        if version % 200 == 0:
            server.drain()
        if version in checkpoints:
            settle(server, uri, version)
            figures[version] = server.rss_kb() / 1024
            print(f"{version:>7} {requests:>9} {figures[version]:>11.1f} {time.time() - started:>8.1f}",
                  flush=True)
    rid = server.request("hsir/test/text", {"uri": uri})
    same_text = server.wait(lambda m: m.get("id") == rid).get("result") == text
    final = server.diagnostics[uri]["diagnostics"]
    server.close()
    fresh = Server(args.server)
    fresh.initialize()
    fresh.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir",
                                                           "version": args.edits, "text": text}})
    settle(fresh, uri, args.edits)
    expected = fresh.diagnostics[uri]["diagnostics"]
    fresh.close()
    same = final == expected
    print(f"text equal to the client's: {same_text}; final diagnostics ({len(final)}) equal to a "
          f"fresh server's ({len(expected)}): {same}")
    first, last = figures.get(checkpoints[0]), figures.get(checkpoints[-1])
    if first:
        print(f"VmRSS at {checkpoints[-1]} edits / at {checkpoints[0]}: {last / first:.2f}x")
    sys.exit(0 if same and same_text else 1)


if __name__ == "__main__":
    main()
