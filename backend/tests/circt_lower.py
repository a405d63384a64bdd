"""Lowers a CIRCT Handshake file to Verilog with CIRCT's Python wheel (`pip install circt`).

Usage: python3 circt_lower.py IN.mlir OUT.sv

The pass pipeline is the one that works with the 1.62 wheel (it has no `arith` dialect, so the
designs use Handshake ops only). Exit status 2 when the wheel is missing, 1 when CIRCT fails.
"""

import io
import sys

PIPELINE = (
    "builtin.module(handshake-lower-extmem-to-hw, "
    "handshake.func(handshake-materialize-forks-sinks), lower-handshake-to-hw, "
    "lower-esi-to-physical, lower-esi-ports, lower-esi-to-hw, hw.module(lower-seq-hlmem), "
    "lower-seq-to-sv, canonicalize, cse)"
)


def main() -> int:
    try:
        import circt
        from circt.ir import Context, Module
        from circt.passmanager import PassManager
    except ImportError as err:
        print(f"the CIRCT Python wheel is not installed ({err}); pip install circt", file=sys.stderr)
        return 2
    source, target = sys.argv[1], sys.argv[2]
    with open(source) as f:
        text = f.read()
    try:
        with Context() as ctx:
            circt.register_dialects(ctx)
            module = Module.parse(text)
            PassManager.parse(PIPELINE).run(module.operation)
            out = io.StringIO()
            circt.export_verilog(module, out)
    except Exception as err:  # CIRCT reports diagnostics as exceptions
        print(f"CIRCT failed on {source}: {err}", file=sys.stderr)
        return 1
    with open(target, "w") as f:
        f.write(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
