"""RTL generation: `hsir rtl` against CIRCT's lowering and Verilog export of the same file.

Usage: python3 benches/rtl_vs_circt.py [--runs N] [--size 1M] [--seed S]
Needs `cargo build --release -p hsir` and CIRCT's wheel (`pip install circt==1.62.0`).

Two inputs, both from the shared generator (../shared/tools/gen_handshake.py --lowerable):
- the generator's own output. CIRCT 1.62 cannot lower it (every `control_merge` there has an
  `i1` index, which its lower-esi-to-hw leaves half-converted); hsir can, and its time is
  reported alone;
- the same generator with `control_merge` left out (benches/gen_circt_lowerable.py), which both
  lower: the comparison.

Each tool runs N times, alternating, on the same file in one session; medians are reported.
CIRCT is timed two ways: the whole command (Python, import, parse, passes, export), and inside
Python from parse to exported text (its library's own work). hsir is timed as the whole
command (read, check, lower, emit, write the files).
"""

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
GEN = ROOT.parent / "shared" / "tools" / "gen_handshake.py"
HSIR = ROOT / "target" / "release" / "hsir"

CIRCT = r'''
import io, sys, time
t0 = time.perf_counter()
import circt
from circt.ir import Context, Module
from circt.passmanager import PassManager
PIPELINE = ("builtin.module(handshake-lower-extmem-to-hw, handshake.func(handshake-materialize-forks-sinks), "
            "lower-handshake-to-hw, lower-esi-to-physical, lower-esi-ports, lower-esi-to-hw, "
            "hw.module(lower-seq-hlmem), lower-seq-to-sv, canonicalize, cse)")
text = open(sys.argv[1]).read()
t1 = time.perf_counter()
with Context() as ctx:
    circt.register_dialects(ctx)
    module = Module.parse(text)
    PassManager.parse(PIPELINE).run(module.operation)
    out = io.StringIO()
    circt.export_verilog(module, out)
t2 = time.perf_counter()
open(sys.argv[2], "w").write(out.getvalue())
print(t2 - t1)
'''


def run_hsir(path, out):
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([str(HSIR), "rtl", str(path), "-o", str(out)], check=True, capture_output=True)
    return time.perf_counter() - start


def run_circt(path, out):
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CIRCT, str(path), str(out)], capture_output=True, text=True)
    whole = time.perf_counter() - start
    if done.returncode != 0:
        lines = [l.strip() for l in done.stderr.splitlines() if l.strip().startswith("error:")]
        return None, whole, lines[0] if lines else "failed"
    return float(done.stdout.strip()), whole, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", default="1M")
    ap.add_argument("--seed", default="1")
    args = ap.parse_args()
    if not HSIR.exists():
        sys.exit(f"{HSIR} is missing: cargo build --release -p hsir")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="hsir-rtl-bench-"))
    own = tmp / "lowerable.mlir"
    both = tmp / "lowerable_no_cmerge.mlir"
    gen = ["--target-bytes", args.size, "--lowerable", "--seed", args.seed]
    subprocess.run([sys.executable, str(GEN), *gen, "-o", str(own)], check=True, capture_output=True)
    subprocess.run([sys.executable, str(ROOT / "benches" / "gen_circt_lowerable.py"), *gen, "-o", str(both)],
                   check=True, capture_output=True)
    for label, path in [("gen_handshake.py --lowerable", own), ("the same without control_merge", both)]:
        size = os.path.getsize(path)
        hsir, inner, whole, failure = [], [], [], None
        for _ in range(args.runs):
            hsir.append(run_hsir(path, tmp / "hsir_out"))
            t_inner, t_whole, err = run_circt(path, tmp / "circt.sv")
            if err:
                failure = err
            else:
                inner.append(t_inner)
                whole.append(t_whole)
        h = statistics.median(hsir)
        print(f"{label}: {size} bytes, {args.runs} runs, medians")
        print(f"  hsir rtl (whole command)            {h * 1000:8.1f} ms")
        if failure:
            print(f"  CIRCT 1.62                          fails: {failure}")
        else:
            c_inner, c_whole = statistics.median(inner), statistics.median(whole)
            print(f"  CIRCT parse+passes+export (inside)  {c_inner * 1000:8.1f} ms   hsir is {c_inner / h:5.1f}x faster")
            print(f"  CIRCT whole command                 {c_whole * 1000:8.1f} ms   hsir is {c_whole / h:5.1f}x faster")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
