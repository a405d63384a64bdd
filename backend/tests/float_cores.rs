//! The library's floating-point cores (`rtl/hsir_float_binary.v`, `rtl/hsir_float_unary.v`)
//! against Rust's own `f32` / `f64` arithmetic, bit for bit (NaN results canonical), for every
//! op on f32 and f64: several thousand operand pairs per format (special values crossed with
//! each other, rounding ties, overflow and underflow, cancellation, and random bit patterns),
//! all in one iverilog simulation.
//!
//! Needs `iverilog` on PATH; without it the test fails and says so.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The vector set a core reads: the f32 pairs (in the low 32 bits) or the f64 pairs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Set {
    S32,
    S64,
}

/// One core in the testbench: its instantiation (ports `a`, `b`, `y`), its result width and the
/// result Rust gives.
struct Core {
    label: String,
    set: Set,
    module: &'static str,
    params: String,
    /// Binary (`lhs`, `rhs`) or unary (`in`).
    binary: bool,
    /// Input bits (`in` or each operand).
    in_bits: u32,
    out_bits: u32,
    reference: Box<dyn Fn(u64, u64) -> u64>,
}

const QNAN32: u64 = 0x7fc0_0000;
const QNAN64: u64 = 0x7ff8_0000_0000_0000;

fn c32(x: f32) -> u64 {
    if x.is_nan() {
        QNAN32
    } else {
        u64::from(x.to_bits())
    }
}

fn c64(x: f64) -> u64 {
    if x.is_nan() {
        QNAN64
    } else {
        x.to_bits()
    }
}

fn f32_of(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

fn f64_of(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// arith's predicates, in the order of their enum numbers.
const PREDICATES: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

fn predicate(name: &str, a: f64, b: f64) -> bool {
    let uno = a.is_nan() || b.is_nan();
    let (eq, lt, gt) = (a == b, a < b, a > b);
    match name {
        "false" => false,
        "oeq" => eq,
        "ogt" => gt,
        "oge" => gt || eq,
        "olt" => lt,
        "ole" => lt || eq,
        "one" => lt || gt,
        "ord" => !uno,
        "ueq" => uno || eq,
        "ugt" => uno || gt,
        "uge" => uno || gt || eq,
        "ult" => uno || lt,
        "ule" => uno || lt || eq,
        "une" => uno || lt || gt,
        "uno" => uno,
        "true" => true,
        other => panic!("no predicate {other}"),
    }
}

fn binary(label: &str, set: Set, op: &str, f: impl Fn(u64, u64) -> u64 + 'static) -> Core {
    let (ew, mw, w) = match set {
        Set::S32 => (8, 23, 32),
        Set::S64 => (11, 52, 64),
    };
    let ow = if op.starts_with("cmpf") { 1 } else { w };
    Core {
        label: label.to_string(),
        set,
        module: "hsir_float_binary",
        params: format!(".EW({ew}), .MW({mw}), .OW({ow}), .OP(\"{op}\"), .LATENCY(0)"),
        binary: true,
        in_bits: w,
        out_bits: ow,
        reference: Box::new(f),
    }
}

fn unary(
    label: &str,
    set: Set,
    op: &str,
    (iw, iew): (u32, u32),
    (ow, oew): (u32, u32),
    f: impl Fn(u64) -> u64 + 'static,
) -> Core {
    Core {
        label: label.to_string(),
        set,
        module: "hsir_float_unary",
        params: format!(
            ".IW({iw}), .OW({ow}), .IEW({iew}), .OEW({oew}), .OP(\"{op}\"), .LATENCY(0)"
        ),
        binary: false,
        in_bits: iw,
        out_bits: ow,
        reference: Box::new(move |a, _| f(a)),
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

fn cores() -> Vec<Core> {
    let mut cores = vec![
        binary("addf32", Set::S32, "addf", |a, b| c32(f32_of(a) + f32_of(b))),
        binary("subf32", Set::S32, "subf", |a, b| c32(f32_of(a) - f32_of(b))),
        binary("mulf32", Set::S32, "mulf", |a, b| c32(f32_of(a) * f32_of(b))),
        binary("divf32", Set::S32, "divf", |a, b| c32(f32_of(a) / f32_of(b))),
        binary("addf64", Set::S64, "addf", |a, b| c64(f64_of(a) + f64_of(b))),
        binary("subf64", Set::S64, "subf", |a, b| c64(f64_of(a) - f64_of(b))),
        binary("mulf64", Set::S64, "mulf", |a, b| c64(f64_of(a) * f64_of(b))),
        binary("divf64", Set::S64, "divf", |a, b| c64(f64_of(a) / f64_of(b))),
    ];
    for p in PREDICATES {
        cores.push(binary(&format!("cmpf_{p}32"), Set::S32, &format!("cmpf_{p}"), move |a, b| {
            u64::from(predicate(p, f64::from(f32_of(a)), f64::from(f32_of(b))))
        }));
        cores.push(binary(&format!("cmpf_{p}64"), Set::S64, &format!("cmpf_{p}"), move |a, b| {
            u64::from(predicate(p, f64_of(a), f64_of(b)))
        }));
    }
    cores.extend([
        unary("negf32", Set::S32, "negf", (32, 8), (32, 8), |a| c32(-f32_of(a))),
        unary("negf64", Set::S64, "negf", (64, 11), (64, 11), |a| c64(-f64_of(a))),
        unary("extf", Set::S32, "extf", (32, 8), (64, 11), |a| c64(f64::from(f32_of(a)))),
        unary("truncf", Set::S64, "truncf", (64, 11), (32, 8), |a| c32(f64_of(a) as f32)),
        // Integers read from the operand's bits.
        unary("sitofp_i32_f32", Set::S32, "sitofp", (32, 0), (32, 8), |a| {
            c32(a as u32 as i32 as f32)
        }),
        unary("uitofp_i32_f32", Set::S32, "uitofp", (32, 0), (32, 8), |a| c32(a as u32 as f32)),
        unary("sitofp_i32_f64", Set::S32, "sitofp", (32, 0), (64, 11), |a| {
            c64(f64::from(a as u32 as i32))
        }),
        unary("sitofp_i16_f32", Set::S32, "sitofp", (16, 0), (32, 8), |a| {
            c32(f32::from(a as u16 as i16))
        }),
        unary("sitofp_i64_f64", Set::S64, "sitofp", (64, 0), (64, 11), |a| c64(a as i64 as f64)),
        unary("uitofp_i64_f64", Set::S64, "uitofp", (64, 0), (64, 11), |a| c64(a as f64)),
        unary("sitofp_i64_f32", Set::S64, "sitofp", (64, 0), (32, 8), |a| c32(a as i64 as f32)),
        unary("uitofp_i64_f32", Set::S64, "uitofp", (64, 0), (32, 8), |a| c32(a as f32)),
        unary("fptosi_f32_i32", Set::S32, "fptosi", (32, 8), (32, 0), |a| {
            u64::from(f32_of(a) as i32 as u32)
        }),
        unary("fptoui_f32_i32", Set::S32, "fptoui", (32, 8), (32, 0), |a| {
            u64::from(f32_of(a) as u32)
        }),
        unary("fptosi_f32_i64", Set::S32, "fptosi", (32, 8), (64, 0), |a| f32_of(a) as i64 as u64),
        unary("fptosi_f32_i8", Set::S32, "fptosi", (32, 8), (8, 0), |a| {
            u64::from(f32_of(a) as i8 as u8)
        }),
        unary("fptosi_f64_i64", Set::S64, "fptosi", (64, 11), (64, 0), |a| f64_of(a) as i64 as u64),
        unary("fptoui_f64_i64", Set::S64, "fptoui", (64, 11), (64, 0), |a| f64_of(a) as u64),
        unary("fptosi_f64_i32", Set::S64, "fptosi", (64, 11), (32, 0), |a| {
            u64::from(f64_of(a) as i32 as u32)
        }),
        unary("fptoui_f64_i16", Set::S64, "fptoui", (64, 11), (16, 0), |a| {
            u64::from(f64_of(a) as u16)
        }),
    ]);
    cores
}

/// SplitMix64: deterministic vectors.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A binary format: exponent and mantissa bits.
struct Format {
    ew: u32,
    mw: u32,
}

impl Format {
    fn bits(&self) -> u32 {
        1 + self.ew + self.mw
    }

    fn pack(&self, sign: u64, exponent: u64, mantissa: u64) -> u64 {
        (sign << (self.ew + self.mw))
            | ((exponent & mask(self.ew)) << self.mw)
            | (mantissa & mask(self.mw))
    }

    fn bias(&self) -> u64 {
        (1 << (self.ew - 1)) - 1
    }

    fn emax(&self) -> u64 {
        mask(self.ew)
    }

    /// Values every op must get right at the edges of the format.
    fn specials(&self, integers: &[u64]) -> Vec<u64> {
        let (mw, emax, bias) = (self.mw, self.emax(), self.bias());
        let mut out = Vec::new();
        for sign in [0, 1] {
            out.extend([
                self.pack(sign, 0, 0),                    // zero
                self.pack(sign, 0, 1),                    // smallest subnormal
                self.pack(sign, 0, 3),                    // a subnormal
                self.pack(sign, 0, mask(mw)),             // largest subnormal
                self.pack(sign, 1, 0),                    // smallest normal
                self.pack(sign, 1, 1),                    // just above it
                self.pack(sign, emax - 1, mask(mw)),      // largest finite
                self.pack(sign, emax - 1, 0),             // a large power of two
                self.pack(sign, emax, 0),                 // infinity
                self.pack(sign, emax, 1 << (mw - 1)),     // quiet NaN
                self.pack(sign, emax, 1),                 // signalling NaN
                self.pack(sign, emax, mask(mw)),          // NaN with a full payload
                self.pack(sign, bias, 0),                 // 1
                self.pack(sign, bias, 1),                 // 1 + ulp
                self.pack(sign, bias - 1, mask(mw)),      // 1 - ulp/2
                self.pack(sign, bias - 1, 0),             // 0.5
                self.pack(sign, bias - 1, 1 << (mw - 1)), // 0.75
                self.pack(sign, bias + 1, 0),             // 2
                self.pack(sign, bias + 1, 1 << (mw - 1)), // 3
                self.pack(sign, bias + mw as u64, 0),     // 2^mw: integers stop being dense
                self.pack(sign, bias + mw as u64 + 1, 1), // an odd integer beyond
                self.pack(sign, bias + 30, mask(mw)),     // near the i32 limits
                self.pack(sign, bias + 31, 0),            // 2^31
                self.pack(sign, bias + 63, 0),            // 2^63
                self.pack(sign, bias + 62, mask(mw)),     // just below 2^63
            ]);
        }
        out.extend_from_slice(integers);
        out
    }

    /// A random finite value whose exponent is near `center` (biased).
    fn near(&self, rng: &mut Rng, center: u64, spread: u64) -> u64 {
        let low = center.saturating_sub(spread).max(1);
        let high = (center + spread).min(self.emax() - 1);
        let e = low + rng.below(high - low + 1);
        self.pack(rng.below(2), e, rng.next())
    }

    /// Operand pairs: specials crossed, then structured and plain random ones.
    fn pairs(&self, rng: &mut Rng, random: usize) -> Vec<(u64, u64)> {
        let bits = self.bits();
        let bias = self.bias();
        let integers: Vec<u64> = [
            0u64,
            1,
            u64::MAX,
            1 << (bits - 1),
            (1 << (bits - 1)) - 1,
            (1 << (self.mw + 1)) + 1,
            (1 << (self.mw + 2)) + 3,
            0x8000,
            0x7fff,
            0xffff,
        ]
        .iter()
        .map(|v| v & mask(bits))
        .collect();
        let specials = self.specials(&integers);
        let mut pairs = Vec::new();
        for &a in &specials {
            for &b in &specials {
                pairs.push((a, b));
            }
        }
        let mw = self.mw;
        for _ in 0..random {
            let pair = match rng.below(8) {
                // Plain bit patterns (NaNs, infinities and subnormals included).
                0 | 1 => (rng.next() & mask(bits), rng.next() & mask(bits)),
                // Nearby exponents: aligned sums, cancellation when signs differ.
                2 => {
                    let a = self.near(rng, bias, bias - 2);
                    let e = (a >> mw) & mask(self.ew);
                    (a, self.near(rng, e, 3))
                }
                // Almost equal magnitudes of opposite signs: massive cancellation.
                3 => {
                    let a = self.near(rng, bias, bias - 2);
                    let b = (a ^ (1 << (bits - 1))).wrapping_add(rng.below(9)).wrapping_sub(4);
                    (a, b & mask(bits))
                }
                // Ties: b is half an ulp of a, or an odd multiple of it.
                4 => {
                    let e = 2 + mw as u64 + rng.below(self.emax() - 4 - mw as u64);
                    let a = self.pack(rng.below(2), e, rng.next());
                    let half = self.pack(rng.below(2), e - mw as u64 - 1, 0);
                    let b = if rng.below(2) == 0 { half } else { half | (1 << (mw - 1)) };
                    (a, b)
                }
                // Products and quotients near the bottom and top of the range.
                5 => {
                    let a = self.near(rng, bias / 2, bias / 2);
                    (a, self.near(rng, bias / 2, bias / 2))
                }
                6 => {
                    let a = self.near(rng, bias + bias / 2, bias / 2);
                    (a, self.near(rng, bias - bias / 2, bias / 2))
                }
                // Values an integer conversion keeps: magnitudes up to 2^70.
                _ => (self.near(rng, bias + 35, 36), self.near(rng, bias, 2)),
            };
            pairs.push(pair);
        }
        pairs
    }
}

fn tool(name: &str) -> Command {
    if Command::new(name).arg("-V").output().is_err() {
        panic!("`{name}` is not installed: this test needs it (apt-get install iverilog)");
    }
    Command::new(name)
}

fn fresh_dir(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-float-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The testbench: every core on its set's wires; for each vector, one line of results.
fn testbench(cores: &[Core], counts: [usize; 2]) -> String {
    let mut tb = String::from("`timescale 1ns/1ps\nmodule float_cores_tb;\n");
    for (k, n) in counts.iter().enumerate() {
        let w = if k == 0 { 32 } else { 64 };
        let _ = writeln!(tb, "  reg [{}:0] va{w} [0:{}];", w - 1, n - 1);
        let _ = writeln!(tb, "  reg [{}:0] vb{w} [0:{}];", w - 1, n - 1);
        let _ = writeln!(tb, "  reg [{}:0] a{w}, b{w};", w - 1);
    }
    for (i, core) in cores.iter().enumerate() {
        let w = if core.set == Set::S32 { 32 } else { 64 };
        let _ = writeln!(tb, "  wire [{}:0] y{i}; // {}", core.out_bits - 1, core.label);
        let input = |v: &str| format!("{v}{w}[{}:0]", core.in_bits - 1);
        let ports = if core.binary {
            format!(
                ".lhs_data({}), .lhs_valid(1'b1), .lhs_ready(), .rhs_data({}), .rhs_valid(1'b1), .rhs_ready()",
                input("a"),
                input("b")
            )
        } else {
            format!(".in_data({}), .in_valid(1'b1), .in_ready()", input("a"))
        };
        let _ = writeln!(
            tb,
            "  {} #({}) core{i} (.clk(1'b0), .rst(1'b0), {ports}, .out_data(y{i}), .out_valid(), .out_ready(1'b1));",
            core.module, core.params
        );
    }
    let _ = writeln!(tb, "  integer i;\n  initial begin");
    for (k, n) in counts.iter().enumerate() {
        let w = if k == 0 { 32 } else { 64 };
        let set = if k == 0 { Set::S32 } else { Set::S64 };
        let _ = writeln!(
            tb,
            "    $readmemh(\"a{w}.hex\", va{w});\n    $readmemh(\"b{w}.hex\", vb{w});"
        );
        let _ = writeln!(tb, "    for (i = 0; i < {n}; i = i + 1) begin");
        let _ = writeln!(tb, "      a{w} = va{w}[i];\n      b{w} = vb{w}[i];\n      #1;");
        let outs: Vec<(usize, &Core)> =
            cores.iter().enumerate().filter(|(_, c)| c.set == set).collect();
        let format: Vec<&str> = outs.iter().map(|_| "%h").collect();
        let args: Vec<String> = outs.iter().map(|(i, _)| format!("y{i}")).collect();
        let _ = writeln!(
            tb,
            "      $display(\"v{w} %0d {}\", i, {});",
            format.join(" "),
            args.join(", ")
        );
        let _ = writeln!(tb, "    end");
    }
    let _ = writeln!(tb, "    $display(\"done\");\n    $finish;\n  end\nendmodule");
    tb
}

#[test]
fn float_cores_match_rust_bit_for_bit() {
    let cores = cores();
    let mut rng = Rng(0x5eed_f10a7);
    let formats = [Format { ew: 8, mw: 23 }, Format { ew: 11, mw: 52 }];
    let sets: Vec<Vec<(u64, u64)>> = formats.iter().map(|f| f.pairs(&mut rng, 3000)).collect();
    let dir = fresh_dir("cores");
    for (format, pairs) in formats.iter().zip(&sets) {
        let w = format.bits();
        let digits = (w / 4) as usize;
        let column = |pick: fn(&(u64, u64)) -> u64| -> String {
            pairs.iter().map(|p| format!("{:0digits$x}\n", pick(p))).collect()
        };
        std::fs::write(dir.join(format!("a{w}.hex")), column(|p| p.0)).unwrap();
        std::fs::write(dir.join(format!("b{w}.hex")), column(|p| p.1)).unwrap();
    }
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl");
    std::fs::write(dir.join("tb.v"), testbench(&cores, [sets[0].len(), sets[1].len()])).unwrap();
    let compiled = tool("iverilog")
        .args(["-g2005", "-o", "tb.vvp", "tb.v"])
        .arg(rtl.join("hsir_float_binary.v"))
        .arg(rtl.join("hsir_float_unary.v"))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        compiled.status.success(),
        "iverilog failed:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = tool("vvp").args(["-n", "tb.vvp"]).current_dir(&dir).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(out.contains("done"), "the simulation did not finish:\n{out}");

    let mut mismatches: Vec<String> = Vec::new();
    let mut checked = 0usize;
    for (k, pairs) in sets.iter().enumerate() {
        let (set, w) = if k == 0 { (Set::S32, 32) } else { (Set::S64, 64) };
        let set_cores: Vec<&Core> = cores.iter().filter(|c| c.set == set).collect();
        let prefix = format!("v{w} ");
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(lines.len(), pairs.len(), "f{w}: one line per vector");
        for (line, &(a, b)) in lines.iter().zip(pairs) {
            let fields: Vec<&str> = line.split_whitespace().skip(2).collect();
            assert_eq!(fields.len(), set_cores.len(), "{line}");
            for (field, core) in fields.iter().zip(&set_cores) {
                let expected = (core.reference)(a & mask(core.in_bits), b & mask(core.in_bits))
                    & mask(core.out_bits);
                let got = u64::from_str_radix(field, 16);
                checked += 1;
                if got != Ok(expected) {
                    mismatches.push(format!(
                        "{}({a:#x}, {b:#x}): RTL {field}, Rust {expected:#x}",
                        core.label
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let vectors = sets[0].len() + sets[1].len();
    assert!(vectors > 4000, "{vectors} vectors");
    assert!(
        mismatches.is_empty(),
        "{} of {checked} results differ ({vectors} vectors); the first ones:\n{}",
        mismatches.len(),
        mismatches.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    eprintln!("{checked} results of {} cores on {vectors} vectors agree", cores.len());
}

/// A checker of one pipelined core in a testbench: `N` tokens through `addf` with `LATENCY`
/// stages. Without stalls (`STALL = 0`) both operands are always offered and the result always
/// taken: the first result must leave `LATENCY` cycles after the first operands entered, and
/// one result every cycle after that. With stalls, each operand's valid and the result's ready
/// are random: every result must still arrive once, in order.
const PIPE_CHECK: &str = r#"
module pipe_check #(parameter LATENCY = 1, parameter STALL = 0, parameter SEED = 1) (
  input clk, input rst, output reg done
);
  localparam N = 64;
  reg [31:0] a [0:N-1];
  reg [31:0] b [0:N-1];
  reg [31:0] y [0:N-1];
  initial begin
    $readmemh("pipe_a.hex", a);
    $readmemh("pipe_b.hex", b);
    $readmemh("pipe_y.hex", y);
  end
  integer ka = 0, kb = 0, ky = 0, cycle = 0, first_in = -1, first_out = -1, last_out = -1;
  integer seed = SEED;
  reg lhs_valid = 1'b0, rhs_valid = 1'b0, out_ready = 1'b0;
  wire lhs_ready, rhs_ready, out_valid;
  wire [31:0] out_data;
  hsir_float_binary #(.EW(8), .MW(23), .OW(32), .OP("addf"), .LATENCY(LATENCY)) dut (
    .clk(clk), .rst(rst),
    .lhs_data(a[ka < N ? ka : 0]), .lhs_valid(lhs_valid), .lhs_ready(lhs_ready),
    .rhs_data(b[kb < N ? kb : 0]), .rhs_valid(rhs_valid), .rhs_ready(rhs_ready),
    .out_data(out_data), .out_valid(out_valid), .out_ready(out_ready));
  // Inputs change after each edge; a valid stays up until its token is taken.
  always @(negedge clk) begin
    if (!rst) begin
      if (!lhs_valid || STALL == 0) lhs_valid <= ka < N && (STALL == 0 || ($random(seed) & 1));
      if (!rhs_valid || STALL == 0) rhs_valid <= kb < N && (STALL == 0 || ($random(seed) & 1));
      out_ready <= STALL == 0 || ($random(seed) % 3 != 0);
    end
  end
  initial done = 1'b0;
  always @(posedge clk) begin
    if (!rst) begin
      cycle <= cycle + 1;
      if (lhs_valid && lhs_ready) begin
        if (first_in < 0) first_in <= cycle;
        ka <= ka + 1;
        lhs_valid <= 1'b0;
      end
      if (rhs_valid && rhs_ready) begin
        kb <= kb + 1;
        rhs_valid <= 1'b0;
      end
      if (out_valid && out_ready) begin
        if (ky >= N) $display("pipe L=%0d stall=%0d: FAIL an extra result", LATENCY, STALL);
        else if (out_data !== y[ky])
          $display("pipe L=%0d stall=%0d: FAIL result %0d is %h, expected %h", LATENCY, STALL, ky, out_data, y[ky]);
        if (first_out < 0) first_out <= cycle;
        last_out <= cycle;
        ky <= ky + 1;
      end
      if (ky == N && !done) begin
        done <= 1'b1;
        if (STALL == 0 && (first_out - first_in != LATENCY || last_out - first_out != N - 1))
          $display("pipe L=%0d stall=0: FAIL first result after %0d cycles, last %0d cycles later",
                   LATENCY, first_out - first_in, last_out - first_out);
        else
          $display("pipe L=%0d stall=%0d: PASS in %0d cycles", LATENCY, STALL, cycle);
      end
      if (cycle > 100000) begin
        $display("pipe L=%0d stall=%0d: FAIL timeout with %0d results", LATENCY, STALL, ky);
        done <= 1'b1;
      end
    end
  end
endmodule
"#;

#[test]
fn float_pipelines_keep_throughput_and_order_under_stalls() {
    let mut rng = Rng(0x9199_e11e);
    let format = Format { ew: 8, mw: 23 };
    let pairs: Vec<(u64, u64)> =
        (0..64).map(|_| (format.near(&mut rng, 127, 20), format.near(&mut rng, 127, 20))).collect();
    let dir = fresh_dir("pipelines");
    let column = |f: &dyn Fn(&(u64, u64)) -> u64| -> String {
        pairs.iter().map(|p| format!("{:08x}\n", f(p))).collect()
    };
    std::fs::write(dir.join("pipe_a.hex"), column(&|p| p.0)).unwrap();
    std::fs::write(dir.join("pipe_b.hex"), column(&|p| p.1)).unwrap();
    std::fs::write(dir.join("pipe_y.hex"), column(&|p| c32(f32_of(p.0) + f32_of(p.1)))).unwrap();
    let checks = [(1, 0), (3, 0), (6, 0), (1, 1), (3, 1), (6, 1), (15, 1)];
    let mut tb = String::from(PIPE_CHECK);
    tb.push_str("module pipe_tb;\n  reg clk = 1'b0, rst = 1'b1;\n  always #5 clk = ~clk;\n");
    for (i, (latency, stall)) in checks.iter().enumerate() {
        let _ = writeln!(
            tb,
            "  wire done{i};\n  pipe_check #(.LATENCY({latency}), .STALL({stall}), .SEED({})) c{i} (.clk(clk), .rst(rst), .done(done{i}));",
            i + 7
        );
    }
    let all: Vec<String> = (0..checks.len()).map(|i| format!("done{i}")).collect();
    let _ = writeln!(
        tb,
        "  initial begin\n    #22 rst = 1'b0;\n    wait ({});\n    #20 $finish;\n  end\nendmodule",
        all.join(" && ")
    );
    std::fs::write(dir.join("pipe_tb.v"), tb).unwrap();
    let rtl = Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl/hsir_float_binary.v");
    let compiled = tool("iverilog")
        .args(["-g2005", "-s", "pipe_tb", "-o", "pipe.vvp", "pipe_tb.v"])
        .arg(rtl)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        compiled.status.success(),
        "iverilog failed:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = tool("vvp").args(["-n", "pipe.vvp"]).current_dir(&dir).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    let passes = out.lines().filter(|l| l.contains(": PASS")).count();
    assert!(!out.contains("FAIL") && passes == checks.len(), "{out}");
}
