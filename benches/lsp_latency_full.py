#!/usr/bin/env python3
"""Runs ../shared/tools/lsp_latency.py as a client that declares what VS Code declares for
diagnostics (related information, code description links, tags), so that the server sends
everything a diagnostic carries. Same arguments as lsp_latency.py.

The shared tool's own `initialize` declares only `versionSupport`; a server that honours
client capabilities then leaves related notes, links and tags out, which makes each publish
smaller. This wrapper measures the heavier case too.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "tools"))

import lsp_latency  # noqa: E402

FULL = {
    "relatedInformation": True,
    "codeDescriptionSupport": True,
    "tagSupport": {"valueSet": [1, 2]},
    "versionSupport": True,
    "dataSupport": True,
}

plain_request = lsp_latency.Conn.request


def request(self, method, params):
    if method == "initialize":
        text_document = params.setdefault("capabilities", {}).setdefault("textDocument", {})
        text_document["publishDiagnostics"] = dict(FULL)
    return plain_request(self, method, params)


lsp_latency.Conn.request = request

if __name__ == "__main__":
    lsp_latency.main()
