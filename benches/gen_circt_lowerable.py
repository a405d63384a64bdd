"""gen_handshake.py --lowerable, without `control_merge`, for the CIRCT comparison.

CIRCT's 1.62 wheel cannot lower a `control_merge` whose index is `i1` (lower-esi-to-hw leaves
an `esi.unwrap.vr` live), and gen_handshake.py types every index `i1`. This runs the shared
generator unchanged but for that op: its weight is 0, and the `i1` values it would have made
come from `constant`s. Arguments are gen_handshake.py's.
"""

import importlib.util
import pathlib
import sys

TOOL = pathlib.Path(__file__).resolve().parents[2] / "shared" / "tools" / "gen_handshake.py"


def main() -> None:
    spec = importlib.util.spec_from_file_location("gen_handshake", TOOL)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    gen.BASE_WEIGHTS["control_merge"] = 0
    original = gen.Func.produce

    def produce(self, ty):
        if ty == gen.I1:
            ctrl = self.take(gen.NONE)
            op = gen.Op("constant", [ctrl], [ty], {"value": self.const_val(ty)})
            self.emit(op, close_pending=False)
        else:
            original(self, ty)

    gen.Func.produce = produce
    sys.argv = [str(TOOL)] + sys.argv[1:]
    gen.main()


if __name__ == "__main__":
    main()
