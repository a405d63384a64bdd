"""Cold `hsir check` against `mlir-opt-16`, and the server against `mlir-lsp-server-16` (issue 26).

Usage: python3 benches/cold_check.py [--hsir PATH] [--baseline PATH] [--runs N]
Needs `cargo build --release -p hsir`, python3, GNU time (/usr/bin/time) and Debian's
`mlir-16-tools` (mlir-opt-16, mlir-lsp-server-16). The hsir binary is `--hsir`, else
`$CARGO_TARGET_DIR/release/hsir`, else `target/release/hsir`.

Measured in one run, and printed with their ratios against the issue's goals:
- cold `hsir check --format json` of the 10 MB generated file
  (`gen_handshake.py --target-bytes 10000000`) against `mlir-opt-16
  --allow-unregistered-dialect FILE -o /dev/null` on its generic twin (`--generic`): the whole
  process, median of N runs, alternating (goal: hsir >= 5x faster);
- the same for the largest file of ../shared/corpus that mlir-opt-16 can read, against its
  generic form printed by `mlir-opt-16 --mlir-print-op-generic` (files it cannot read, most of
  them in Handshake's custom syntax, which mlir-opt-16 does not know, are named and skipped);
- the peak memory of each of those processes (`/usr/bin/time -f %M`, median; goal: <= 1x);
- the language server's peak (VmHWM) after `didOpen` of a 15 MB generated file and its
  diagnostics, against mlir-lsp-server-16's on the generic twin (goal: <= 1x), and the median
  latency of one-character edits to diagnostics, driven by ../shared/tools/lsp_latency.py. With
  `--baseline PATH` (an hsir binary built before a change) the same server measurements are
  made with it, and the edit latency is compared with it (goal: unchanged or better, <= 1x).

Generated inputs are kept in target/bench-data between runs.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
GEN = SHARED / "tools" / "gen_handshake.py"
LSP_LATENCY = SHARED / "tools" / "lsp_latency.py"
DATA = ROOT / "target" / "bench-data"


def default_hsir():
    target = os.environ.get("CARGO_TARGET_DIR")
    base = pathlib.Path(target) if target else ROOT / "target"
    if not base.is_absolute():
        base = ROOT / base
    return base / "release" / "hsir"


def generated(size, seed, generic, ops=None):
    """`gen_handshake.py --target-bytes SIZE --seed SEED [--ops N] [--generic]`, made once."""
    DATA.mkdir(parents=True, exist_ok=True)
    name = "cold-%s-seed%s%s%s.mlir" % (size, seed, "-ops%d" % ops if ops else "",
                                        "-generic" if generic else "")
    path = DATA / name
    if not path.exists():
        cmd = [sys.executable, str(GEN), "--target-bytes", str(size), "--seed", str(seed),
               "-o", str(path)]
        if ops:
            cmd += ["--ops", str(ops)]
        if generic:
            cmd.append("--generic")
        subprocess.run(cmd, check=True, capture_output=True)
    return path


def largest_corpus_pair():
    """The largest corpus file mlir-opt-16 can read, its generic form, and the files skipped."""
    files = sorted((p for p in (SHARED / "corpus").rglob("*.mlir")),
                   key=lambda p: p.stat().st_size, reverse=True)
    skipped = []
    for path in files:
        twin = DATA / ("corpus-generic-" + path.name)
        done = subprocess.run(
            ["mlir-opt-16", "--allow-unregistered-dialect", "--mlir-print-op-generic",
             str(path), "-o", str(twin)], capture_output=True, text=True)
        if done.returncode == 0:
            return path, twin, skipped
        first = (done.stderr.strip().splitlines() or ["(no message)"])[0]
        skipped.append((path, first))
    return None, None, skipped


def timed(cmd):
    """Wall time, CPU time (user + system) and peak RSS (KiB) of one run of `cmd`, output
    discarded."""
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rss.name] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        peak, user, system = rss.read().strip().splitlines()[-1].split()
    return elapsed, int(peak), float(user) + float(system)


def hsir_check(hsir, path):
    return timed([str(hsir), "check", "--format", "json", str(path)])


def compare(hsir, mine, theirs, runs):
    """Medians of alternating runs, (wall s, peak KiB, CPU s) for hsir then mlir-opt."""
    ours, others = [], []
    for _ in range(runs):
        ours.append(hsir_check(hsir, mine))
        others.append(timed(["mlir-opt-16", "--allow-unregistered-dialect", str(theirs),
                             "-o", "/dev/null"]))
    med = lambda xs: tuple(statistics.median(x[i] for x in xs) for i in range(3))
    return med(ours), med(others)


def server(command, path, repeat):
    """lsp_latency.py's figures for one server on one file."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as out:
        subprocess.run([sys.executable, str(LSP_LATENCY), str(path), "--server", command,
                        "--repeat", str(repeat), "--json", out.name],
                       check=True, capture_output=True)
        return json.load(open(out.name))


def verdict(ok):
    return "met" if ok else "NOT met"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hsir", type=pathlib.Path, default=default_hsir())
    ap.add_argument("--baseline", type=pathlib.Path,
                    help="an hsir binary from before a change, for the server's figures")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--edits", type=int, default=7)
    ap.add_argument("--no-server", action="store_true")
    a = ap.parse_args()
    if not a.hsir.exists():
        sys.exit("no hsir binary at %s: cargo build --release -p hsir" % a.hsir)
    if not GEN.exists():
        sys.exit("skipped: the shared tools are not at %s" % GEN.parent)

    rows = []
    # The files: the generator's default seed (0).
    big = generated(10000000, 0, False)
    big_twin = generated(10000000, 0, True)
    rows.append(("10 MB generated", big, big_twin))
    corpus, corpus_twin, skipped = largest_corpus_pair()
    for path, why in skipped:
        print("corpus: mlir-opt-16 cannot read %s (%d bytes): %s" % (
            path.relative_to(SHARED), path.stat().st_size, why))
    if skipped:
        # The largest file of all, which hsir reads and mlir-opt-16 does not: hsir alone.
        path = skipped[0][0]
        runs = [hsir_check(a.hsir, path) for _ in range(a.runs)]
        print("corpus: hsir check of the largest file, %s: %.1f ms, peak %.1f MB (median of %d)"
              % (path.name, statistics.median(r[0] for r in runs) * 1e3,
                 statistics.median(r[1] for r in runs) / 1024, a.runs))
    if corpus:
        rows.append(("largest corpus file mlir-opt-16 reads: %s" % corpus.name, corpus,
                     corpus_twin))
    else:
        print("corpus: mlir-opt-16 reads none of ../shared/corpus")

    print()
    print("| input | bytes (hsir / generic) | hsir check (CPU) | mlir-opt-16 (CPU) "
          "| speed-up (goal >= 5x) | hsir peak | mlir-opt-16 peak | memory ratio (goal <= 1x) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    summary = []
    for label, mine, theirs in rows:
        (h_s, h_kb, h_cpu), (m_s, m_kb, m_cpu) = compare(a.hsir, mine, theirs, a.runs)
        speed, memory = m_s / h_s, h_kb / m_kb
        print("| %s | %d / %d | %.1f ms (%.0f ms) | %.1f ms (%.0f ms) | %.2fx | %.1f MB | %.1f MB "
              "| %.2fx |" % (label, mine.stat().st_size, theirs.stat().st_size, h_s * 1e3,
                             h_cpu * 1e3, m_s * 1e3, m_cpu * 1e3, speed, h_kb / 1024,
                             m_kb / 1024, memory))
        summary.append("%s: speed %.2fx (goal >= 5x: %s), peak memory %.2fx (goal <= 1x: %s)" % (
            label.split(":")[0], speed, verdict(speed >= 5), memory, verdict(memory <= 1)))

    if not a.no_server:
        lsp = generated("15M", 1, False, ops=400)
        lsp_twin = generated("15M", 1, True, ops=400)
        servers = [("hsir", "%s lsp" % a.hsir, lsp)]
        if a.baseline:
            servers.append(("hsir baseline", "%s lsp" % a.baseline, lsp))
        servers.append(("mlir-lsp-server-16", "mlir-lsp-server-16", lsp_twin))
        got = {}
        print()
        print("| server (15 MB) | didOpen -> diagnostics | peak RSS after open | RSS after edits "
              "| edit -> diagnostics, median (fastest) of %d |" % a.edits)
        print("| --- | ---: | ---: | ---: | ---: |")
        for name, command, path in servers:
            r = server(command, path, a.edits)
            got[name] = r
            print("| %s | %.0f ms | %.1f MB | %.1f MB | %.1f ms (%.1f ms) |" % (
                name, r["open_s"] * 1e3, r["rss_after_open_kb"]["VmHWM"] / 1024,
                r["rss_after_edits_kb"]["VmRSS"] / 1024, r["change_median_s"] * 1e3,
                min(r["change_s"]) * 1e3))
        ours, theirs = got["hsir"], got["mlir-lsp-server-16"]
        peak = ours["rss_after_open_kb"]["VmHWM"] / theirs["rss_after_open_kb"]["VmHWM"]
        summary.append("server peak on didOpen of 15 MB: %.2fx mlir-lsp-server-16's (goal <= 1x: %s)"
                       % (peak, verdict(peak <= 1)))
        edit = ours["change_median_s"]
        summary.append("edit -> diagnostics: %.1f ms, %.0fx faster than mlir-lsp-server-16" % (
            edit * 1e3, theirs["change_median_s"] / edit))
        if "hsir baseline" in got:
            before = got["hsir baseline"]["change_median_s"]
            summary.append("edit -> diagnostics against the baseline: %.2fx (goal <= 1x, within "
                           "noise: %s)" % (edit / before, verdict(edit <= before * 1.1)))
    print()
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
