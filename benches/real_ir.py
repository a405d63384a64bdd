#!/usr/bin/env python3
"""Diagnostics of `hsir check` on the real IR beside the project, per folder.

Usage: python3 benches/real_ir.py [HSIR_BINARY]   (default: target/release/hsir)

For each folder of ../shared (the 2026 corpus, Dynamatic's 2024 test files, Dynamatic's 2025
suite output) it prints how many valid files (no `expected-error` annotations) get errors and
warnings, the totals, and the count per code. Oracle files are counted apart.
"""
import collections
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SHARED = os.path.join(ROOT, "..", "shared")
FOLDERS = ["corpus/circt", "corpus/dynamatic", "dynamatic-2024", "dynamatic-suite/ir"]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/hsir")
    print("| folder | valid files | with errors (total) | with warnings (total) | codes |")
    print("| --- | ---: | ---: | ---: | --- |")
    for folder in FOLDERS:
        files = sorted(glob.glob(os.path.join(SHARED, folder, "*.mlir")))
        stats = collections.Counter()
        codes = collections.Counter()
        for path in files:
            with open(path, encoding="utf-8", errors="replace") as f:
                if "expected-error" in f.read():
                    continue
            out = subprocess.run([binary, "check", "--format", "json", path],
                                 capture_output=True, text=True).stdout
            diagnostics = json.loads(out) if out.strip() else []
            errors = [d for d in diagnostics if d["severity"] == "error"]
            warnings = [d for d in diagnostics if d["severity"] == "warning"]
            stats["files"] += 1
            stats["error_files"] += bool(errors)
            stats["errors"] += len(errors)
            stats["warning_files"] += bool(warnings)
            stats["warnings"] += len(warnings)
            for d in errors + warnings:
                codes[(d["severity"][0], d["code"])] += 1
        listed = ", ".join(f"{s}:{c}={n}" for (s, c), n in codes.most_common())
        print(f"| {folder} | {stats['files']} | {stats['error_files']} ({stats['errors']}) "
              f"| {stats['warning_files']} ({stats['warnings']}) | {listed} |")


if __name__ == "__main__":
    main()
