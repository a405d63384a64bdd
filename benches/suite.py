#!/usr/bin/env python3
"""Dynamatic's benchmark suite through hsir: co-simulation against C, cycles and area.

Usage: python3 benches/suite.py [--hsir BINARY] [--simulator iverilog|verilator] [--no-area]
                                [--no-placement] [--only KERNEL_FLOW ...]

For each kernel and flow of ../shared/dynamatic-suite it runs
- `hsir cosim` on Dynamatic's `__handshake_export.mlir` against the kernel's C: the verdict (with
  its reasons: wrong values, late writes), hsir's cycles from the start token to `end` and to
  the last write that changed memory ("memory final"; later than `end` where `end` comes before
  the last stores land), beside Dynamatic's cycles (`RESULTS.tsv`, whose figure includes 9
  cycles of its testbench) and the gap, hsir's cycles plus those 9;
- `hsir buffers` (fpga20, then fpl22, at the default 4 ns) on Dynamatic's unbuffered
  `__handshake.mlir`, then `hsir cosim` on the result: verdict, cycles to `end` and to memory
  final, buffers and slots, and the placement's time, beside Dynamatic's placement: its cycles
  (`RESULTS.tsv` less the 9), its memory final where its `end` comes before its last stores
  land (in hsir's RTL of its export, the simulator of hsir's placements), its buffers and slots
  (`__handshake_buffered.mlir`) and its Vivado slack. A placement's cycles are bold when no
  more than Dynamatic's to `end`, or, where Dynamatic's `end` came before its memory was final,
  when its memory final is no later than Dynamatic's;
- yosys's `synth_xilinx` on hsir's RTL of the export: LUTs, flip-flops and DSPs, beside
  Dynamatic's Vivado figures (different tools: a figure, not a goal).

It prints Markdown tables for docs/benchmarks.md.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SUITE = os.path.join(ROOT, "..", "shared", "dynamatic-suite")
# A placement or simulation that takes longer than this is reported as a timeout.
TIMEOUT_S = 900
# yosys on a design with an LSQ takes minutes (bicg_LEGACY: 216 s of CPU, 2.6 GB).
AREA_TIMEOUT_S = 3600
# Dynamatic's `cycles` include its testbench's reset and start-up and the cycles between `end`
# and "simulation done": 9 cycles (docs/timing-model.md, "Cycles beside Dynamatic's").
DYNAMATIC_TB_CYCLES = 9


def results():
    with open(os.path.join(SUITE, "RESULTS.tsv"), encoding="utf-8") as f:
        return {(r["kernel"], r["flow"]): r for r in csv.DictReader(f, delimiter="\t")}


def cosim(hsir, simulator, mlir, c_file):
    """(verdict, cycles, memory final, note) of `hsir cosim`: the memory-final figure is the
    cycles to the last write that changed an element (after `end` for a circuit whose `end`
    comes first)."""
    try:
        run = subprocess.run(
            [hsir, "cosim", mlir, "--c", c_file, "--simulator", simulator, "--format", "json"],
            capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "timeout", None, None, f"over {TIMEOUT_S} s"
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        lines = (run.stderr or run.stdout).strip().splitlines()
        return "error", None, None, lines[0] if lines else f"exit {run.returncode}"
    note = ""
    verdict = report.get("verdict", "?")
    if report.get("mismatches"):
        first = report["mismatches"][0]
        note = json.dumps(first)[:120]
    # Writes after `end`: the arrays' elements stale at `end`, and the last write's cycle.
    late = []
    for entry in report.get("late_writes", []):
        stale = entry["stale_at_end"]
        what = f"{entry['output']}: {entry['count']} writes, {entry['first_cycle_after_end']}–" \
               f"{entry['last_cycle_after_end']} cycles after end"
        late.append(what + (f", {len(stale)} elements stale at end" if stale else ", none stale"))
    if late:
        note = (note + "; " if note else "") + "; ".join(late)
    reasons = report.get("reasons", [])
    if verdict == "fail" and reasons:
        verdict = f"fail: {', '.join(reasons)}"
    return verdict, report.get("cycles"), report.get("memory_final_cycles"), note


SUMMARY = re.compile(r"(\d+) buffers \((\d+) slots\).*?(\d+) ms")


def place(hsir, algorithm, mlir, out):
    """(ok, buffers, slots, seconds, message) of `hsir buffers`."""
    start = time.monotonic()
    try:
        run = subprocess.run([hsir, "buffers", "--algorithm", algorithm, mlir, "-o", out],
                             capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, None, None, TIMEOUT_S, "timeout"
    seconds = time.monotonic() - start
    buffers = slots = 0
    for line in run.stderr.splitlines():
        m = SUMMARY.search(line)
        if m:
            buffers += int(m.group(1))
            slots += int(m.group(2))
    message = "" if run.returncode == 0 else run.stderr.strip().splitlines()[-1][:120]
    return run.returncode == 0, buffers, slots, seconds, message


CELLS = re.compile(r"^\s+(\S+)\s+(\d+)$")


def area(hsir, mlir, folder):
    """(LUTs, FFs, DSPs) of yosys's synth_xilinx on hsir's RTL, or None."""
    out = os.path.join(folder, "rtl")
    run = subprocess.run([hsir, "rtl", mlir, "-o", out, "--force"], capture_output=True,
                         text=True)
    if run.returncode != 0:
        return None
    with open(os.path.join(out, "files.f"), encoding="utf-8") as f:
        files = [line.strip() for line in f if line.strip() and not line.startswith("//")]
    top = os.path.basename(files[-1])[:-2]
    script = f"read_verilog -sv {' '.join(files)}; synth_xilinx -top {top} -flatten; stat"
    try:
        run = subprocess.run(["yosys", "-p", script], capture_output=True, text=True,
                             timeout=AREA_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    stats = run.stdout.split("Printing statistics")[-1]
    cells = {}
    for line in stats.splitlines():
        m = CELLS.match(line)
        if m:
            cells[m.group(1)] = int(m.group(2))
    luts = sum(n for c, n in cells.items() if c.startswith("LUT"))
    ffs = sum(n for c, n in cells.items() if c.startswith("FD"))
    return luts, ffs, cells.get("DSP48E1", 0)


BUFFER = re.compile(r"= buffer .*?NUM_SLOTS = (\d+)")


def dynamatic_buffers(path):
    """(buffers, slots) of Dynamatic's placement (its `__handshake_buffered.mlir`)."""
    with open(path, encoding="utf-8") as f:
        slots = [int(m.group(1)) for m in BUFFER.finditer(f.read())]
    return len(slots), sum(slots)


def gap(ours, theirs):
    return f"{100.0 * (ours - theirs) / theirs:+.1f}%" if ours is not None else "–"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hsir", default=os.path.join(ROOT, "target/release/hsir"))
    parser.add_argument("--simulator", default="iverilog")
    parser.add_argument("--no-area", action="store_true")
    parser.add_argument("--no-placement", action="store_true")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    if not os.path.isdir(SUITE):
        sys.exit(f"error: {SUITE} is missing")
    table = results()
    rows = sorted(table)
    if args.only:
        rows = [r for r in rows if f"{r[0]}_{r[1]}" in args.only]
    cosim_rows, placement_rows, area_rows = [], [], []
    for kernel, flow in rows:
        result = table[(kernel, flow)]
        theirs = int(result["cycles"])
        c_file = os.path.join(SUITE, "c", f"{kernel}.c")
        stem = os.path.join(SUITE, "ir", f"{kernel}_{flow}__handshake")
        verdict, cycles, final, note = cosim(args.hsir, args.simulator, stem + "_export.mlir",
                                             c_file)
        ours = cycles + DYNAMATIC_TB_CYCLES if cycles else None
        cosim_rows.append("| " + " | ".join([
            f"{kernel} | {flow}", verdict, str(cycles) if cycles else "–",
            str(final) if final else "–", str(ours) if ours else "–", str(theirs),
            gap(ours, theirs), note]) + " |")
        print(cosim_rows[-1], file=sys.stderr, flush=True)
        # Dynamatic's cycles to `end`; where its `end` comes before its memory is final, the
        # cycles to the last write that changed memory, in hsir's RTL of its export (the same
        # simulator as hsir's placements).
        dyn_end = theirs - DYNAMATIC_TB_CYCLES
        dyn_final = final if cycles and final and final > cycles else None
        bufs, slots = dynamatic_buffers(stem + "_buffered.mlir")
        row = [f"{kernel} | {flow}", str(dyn_end), str(dyn_final) if dyn_final else "–",
               f"{bufs} / {slots}", f"{float(result['slack_ns']):+.3f}"]
        with tempfile.TemporaryDirectory() as folder:
            for algorithm in ([] if args.no_placement else ["fpga20", "fpl22"]):
                placed = os.path.join(folder, f"{algorithm}.mlir")
                ok, buffers, slots, seconds, message = place(
                    args.hsir, algorithm, stem + ".mlir", placed)
                if not ok:
                    row += [f"placement failed: {message}", "–", "–", "–", f"{seconds:.1f}"]
                    continue
                v, c, f, n = cosim(args.hsir, args.simulator, placed, c_file)
                # No more cycles than Dynamatic's to `end`; where its `end` came before its
                # memory was final, memory final against memory final.
                bold = v == "pass" and c is not None and (
                    c <= dyn_end or (dyn_final is not None and f is not None and f <= dyn_final))
                shown = (f"**{c}**" if bold else str(c)) if c else "–"
                row += [v + (f" ({n})" if v != "pass" and n else ""), shown,
                        str(f) if f else "–", f"{buffers} / {slots}", f"{seconds:.1f}"]
            if not args.no_area:
                measured = area(args.hsir, stem + "_export.mlir", folder)
                mine = " / ".join(map(str, measured)) if measured else "–"
                area_rows.append(f"| {kernel} | {flow} | {mine} | {result['luts']} / "
                                 f"{result['ffs']} / {result['dsps']} |")
        placement_rows.append("| " + " | ".join(row) + " |")
        print(placement_rows[-1], file=sys.stderr, flush=True)
    header = ["kernel | flow", "export: cosim", "hsir cycles", "hsir memory final",
              f"hsir + {DYNAMATIC_TB_CYCLES}", "Dynamatic cycles", "gap", "note"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * (len(header) + 1))
    print("\n".join(cosim_rows))
    if not args.no_placement:
        header = ["kernel | flow", "Dynamatic cycles", "Dynamatic memory final",
                  "Dynamatic buffers / slots", "Dynamatic slack at 4 ns"]
        for algorithm in ["fpga20", "fpl22"]:
            header += [f"{algorithm} cosim", "cycles", "memory final", "buffers / slots", "s"]
        print()
        print("| " + " | ".join(header) + " |")
        print("|" + " --- |" * (len(header) + 1))
        print("\n".join(placement_rows))
    if area_rows:
        print()
        print("| kernel | flow | hsir LUT / FF / DSP (yosys synth_xilinx) | Dynamatic LUT / FF / DSP (Vivado) |")
        print("| --- | --- | ---: | ---: |")
        print("\n".join(area_rows))


if __name__ == "__main__":
    main()
