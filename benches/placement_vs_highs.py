#!/usr/bin/env python3
"""Buffer placement: hsir's default path (microlp, decomposed, with its heuristics) against HiGHS
on the same function's undecomposed model, in the same session.

For each kernel: `hsir buffers FILE --strip --report R --emit-model M.lp` gives our objective,
our wall time and the model; HiGHS (PyPI `highspy`, one thread) then solves M.lp. Objectives are
the MILP's (weighted throughput minus the small area cost), so they compare directly.

    pip install highspy
    cargo build --release
    python3 benches/placement_vs_highs.py [--algorithm fpga20] [--highs-limit 300] [--runs 3]
        [--feature-binary PATH]

`--feature-binary` names an `hsir` built with the `highs` cargo feature
(`cargo build --release -p hsir --features highs`); the table then also shows the decomposed
path with HiGHS as each model's solver (`hsir buffers --solver highs`).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "dynamatic")
GEN = os.path.join(ROOT, "..", "shared", "tools", "gen_handshake.py")
HSIR = os.path.join(ROOT, "target", "release", "hsir")

# (name, file or generator ops, function)
CORPUS_KERNELS = [
    ("histogram", "histogram-7-17__handshake_transformed.mlir", "histogram"),
    ("atax", "atax-6-6__handshake_export.mlir", "atax"),
    ("gaussian", "gaussian-4-2__handshake_buffered.mlir", "gaussian"),
    ("2mm", "kernel_2mm-8-8__handshake_export.mlir", "kernel_2mm"),
]
GENERATED = [("gen-40", 40), ("gen-150", 150), ("gen-700", 700), ("gen-1300", 1300)]


def place(path, func, algorithm, work, binary=HSIR, extra=()):
    report = os.path.join(work, "r.json")
    model = os.path.join(work, "m.lp")
    args = [binary, "buffers", *extra, path, "--strip", "--algorithm", algorithm, "--func", func,
            "--report", report, "--emit-model", model, "-o", os.path.join(work, "out.mlir")]
    start = time.perf_counter()
    run = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if run.returncode not in (0, 1):
        sys.exit(f"hsir buffers failed on {path}:\n{run.stderr}")
    f = json.load(open(report))["functions"][0]
    return f, wall, model


def highs(model, limit):
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("time_limit", float(limit))
    h.readModel(model)
    start = time.perf_counter()
    h.run()
    wall = time.perf_counter() - start
    info = h.getInfo()
    status = h.modelStatusToString(h.getModelStatus())
    obj = info.objective_function_value if info.primal_solution_status == 2 else None
    return obj, info.mip_dual_bound, status, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--algorithm", default="fpga20")
    ap.add_argument("--highs-limit", type=float, default=300.0)
    ap.add_argument("--runs", type=int, default=3, help="runs of hsir per kernel (median time)")
    ap.add_argument("--feature-binary", help="an hsir built with the `highs` feature")
    ap.add_argument("--only", nargs="*", help="only these kernels (by name)")
    opts = ap.parse_args()
    work = tempfile.mkdtemp(prefix="hsir-place-bench-")
    kernels = []
    wanted = lambda name: not opts.only or name in opts.only
    for name, file, func in CORPUS_KERNELS:
        if wanted(name):
            kernels.append((name, os.path.join(CORPUS, file), func))
    for name, ops in GENERATED:
        if not wanted(name):
            continue
        path = os.path.join(work, f"{name}.mlir")
        subprocess.run([sys.executable, GEN, "--funcs", "1", "--ops", str(ops), "--seed", "7",
                        "--no-instance", "-o", path], check=True, capture_output=True)
        kernels.append((name, path, "kernel_0"))
    feature = opts.feature_binary
    extra_head = " `highs` feature objective | feature time (s) |" if feature else ""
    extra_rule = " ---: | ---: |" if feature else ""
    print(f"| kernel | channels | loops | hsir objective | hsir time (s) | HiGHS objective | "
          f"HiGHS bound | HiGHS status | HiGHS time (s) | hsir vs HiGHS |{extra_head}")
    print(f"| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |{extra_rule}")
    for name, path, func in kernels:
        times = []
        for _ in range(opts.runs):
            f, wall, model = place(path, func, opts.algorithm, work)
            times.append(wall)
        ours = f["objective"]
        obj, bound, status, hwall = highs(model, opts.highs_limit)
        if obj is None:
            versus = "HiGHS found none"
        else:
            versus = f"{(ours - obj) / max(abs(obj), 1e-9) * 100:+.2f}%"
        shown = "-" if obj is None else f"{obj:.5f}"
        extra = ""
        if feature:
            g, gwall, _ = place(path, func, opts.algorithm, work, feature, ("--solver", "highs"))
            extra = f" {g['objective']:.5f} | {gwall:.2f} |"
        print(f"| {name} | {f['channels']} | {len(f['cfdfcs'])} | {ours:.5f} | "
              f"{statistics.median(times):.2f} | {shown} | {bound:.5f} | {status} | "
              f"{hwall:.2f} | {versus} |{extra}", flush=True)


if __name__ == "__main__":
    main()
