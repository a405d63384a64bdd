//! Co-simulation against the kernel's C source, as Dynamatic's hls-verifier does: the C
//! program's `main` calls the kernel through `CALL_KERNEL`, whose stand-in (`header`) records
//! every argument before the call and the return value and every array after it; those inputs
//! drive the interpreter and the RTL (`stimulus`, one invocation), whose outputs are compared
//! with what C computed (`compare`). No IO here: the caller writes the header, runs the C
//! compiler, the program and the simulator, and hands back their text.
//!
//! The C call's arguments are the IR function's non-control arguments, by position: the i-th
//! `CALL_KERNEL` argument is the i-th memref or data argument. Arrays are recorded as raw bytes
//! (`sizeof` of the array, so any number of dimensions), cut into words of the C element's size
//! (the byte count over the memref's word count), little-endian, and masked to the IR's width;
//! floats are their bits. Scalars are recorded as `long long` (integers) or as `float` /
//! `double` by the IR's width, and passed to the kernel as such.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::memories::{memories, MemoryKind};
use crate::netlist::Netlist;
use crate::program::{mask, Func};
use crate::sim::stimulus::arg_type;
use crate::sim::Inputs;
use crate::testbench::{Mode, Stimulus};

/// The record file's name, in the C program's working folder, unless `HSIR_COSIM_OUT` says.
pub const RECORD_FILE: &str = "hsir_c_run.txt";

/// The name reports give the C function's return value.
pub const RETURN: &str = "return";

/// How many mismatching elements are shown per output.
pub const SHOWN_MISMATCHES: usize = 5;

/// What the C call and the IR function have in common.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub func: String,
    /// The C call's arguments, in order.
    pub params: Vec<Param>,
    /// How many arguments the IR function has (control ones included).
    pub arg_count: usize,
    /// The function's data result, which C returns.
    pub ret: Option<Ret>,
    /// How many results the function has (control ones included).
    pub result_count: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The IR argument's index.
    pub arg: usize,
    /// Its name (`argNames`, else the SSA name).
    pub name: String,
    pub width: u32,
    pub float: bool,
    /// The memory's name and word count, for an array.
    pub array: Option<(String, u64)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ret {
    /// The IR result's index.
    pub result: usize,
    pub width: u32,
    pub float: bool,
}

/// The plan for `func`, or why C cannot be matched with it.
pub fn plan(func: &Func) -> Result<Plan, String> {
    let specs = memories(func);
    let names = func.arg_names();
    let args = func.args();
    let mut params = Vec::new();
    for (i, &value) in args.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| {
            func.item.str(func.item.values[value as usize].name()).trim_start_matches('%').into()
        });
        let spec = specs.iter().find(|m| m.kind == MemoryKind::Argument(i));
        let is_memref = matches!(func.ty(value), Some(hsir_analysis::types::Type::MemRef { .. }));
        let Some((width, float)) = arg_type(func, i) else {
            return Err(format!(
                "argument {i} (`{name}`) of `@{}` has a type cosim cannot read",
                func.name
            ));
        };
        if is_memref {
            let Some(spec) = spec else {
                return Err(format!(
                    "argument `{name}` of `@{}` is a memref of unknown size; cosim needs static dimensions",
                    func.name
                ));
            };
            check_float(func, &name, width, float)?;
            params.push(Param {
                arg: i,
                name,
                width,
                float,
                array: Some((spec.name.clone(), spec.depth)),
            });
        } else if func.shape(value).is_some_and(|s| !s.control) {
            check_float(func, &name, width, float)?;
            params.push(Param { arg: i, name, width, float, array: None });
        }
    }
    let mut ret = None;
    let mut result_count = 0;
    if let Some(end) = func.terminator() {
        result_count = func.terminator_results(end);
        let mut data = Vec::new();
        let value_of = |j: usize| func.item.uses[func.item.operands(end)[j] as usize].value;
        for j in 0..result_count.min(end.operands.len()) {
            let Some(value) = value_of(j) else { continue };
            let Some(shape) = func.shape(value) else { continue };
            if !shape.control {
                data.push(j);
            }
        }
        if data.len() > 1 {
            return Err(format!(
                "`@{}` returns {} data results; a C function returns one",
                func.name,
                data.len()
            ));
        }
        if let Some(&j) = data.first() {
            let value = value_of(j).expect("checked above");
            let float = func
                .ty(value)
                .and_then(|t| t.as_channel(false))
                .is_some_and(|t| matches!(t, hsir_analysis::types::Type::Channel { data, .. } if matches!(*data, hsir_analysis::types::Type::Float { .. })));
            let width = func.shape(value).map_or(0, |s| s.data);
            ret = Some(Ret { result: j, width, float });
        }
    }
    Ok(Plan { func: func.name.clone(), params, arg_count: args.len(), ret, result_count })
}

fn check_float(func: &Func, name: &str, width: u32, float: bool) -> Result<(), String> {
    if float && width != 32 && width != 64 {
        return Err(format!(
            "argument `{name}` of `@{}` is a {width}-bit float; cosim handles f32 and f64",
            func.name
        ));
    }
    Ok(())
}

/// The text of `dynamatic/Integration.h` for `plan`: `CALL_KERNEL(kernel, args...)` records
/// the arguments, calls, and records the return value and the arrays.
pub fn header(plan: &Plan) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "// Generated by hsir: a stand-in for Dynamatic's `dynamatic/Integration.h`, made for `@{}`.",
        plan.func
    );
    let _ = writeln!(
        h,
        "// CALL_KERNEL records the kernel's arguments, return value and arrays for `hsir cosim`."
    );
    h.push_str(
        "#ifndef HSIR_INTEGRATION_H\n#define HSIR_INTEGRATION_H\n#include <stdio.h>\n#include <stdlib.h>\n\n",
    );
    h.push_str(
        "static FILE *hsir_open(void) {\n  const char *path = getenv(\"HSIR_COSIM_OUT\");\n",
    );
    let _ = writeln!(h, "  FILE *f = fopen(path ? path : \"{RECORD_FILE}\", \"w\");");
    h.push_str("  if (!f) {\n    perror(\"hsir: cannot write the record of the C run\");\n    exit(70);\n  }\n  return f;\n}\n\n");
    h.push_str("static void hsir_record(FILE *f, const char *what, int index, const void *data,\n                        unsigned long size) {\n  const unsigned char *bytes = (const unsigned char *)data;\n  fprintf(f, \"%s %d %lu \", what, index, size);\n  for (unsigned long k = 0; k < size; k++)\n    fprintf(f, \"%02x\", bytes[k]);\n  fputc('\\n', f);\n}\n\n");
    let formals: Vec<String> = (0..plan.params.len()).map(|i| format!("hsir_a{i}")).collect();
    let mut head = String::from("kernel");
    for f in &formals {
        head.push_str(", ");
        head.push_str(f);
    }
    let _ = writeln!(h, "#define CALL_KERNEL({head}) \\");
    h.push_str("  do { \\\n");
    let _ = writeln!(h, "    FILE *hsir_f = hsir_open(); \\");
    let mut actuals = Vec::new();
    for (i, p) in plan.params.iter().enumerate() {
        if p.array.is_some() {
            let _ = writeln!(
                h,
                "    hsir_record(hsir_f, \"in\", {i}, (hsir_a{i}), sizeof(hsir_a{i})); \\"
            );
            actuals.push(format!("(hsir_a{i})"));
        } else {
            let ty = match (p.float, p.width) {
                (true, 32) => "float",
                (true, _) => "double",
                (false, _) => "long long",
            };
            let _ = writeln!(h, "    {ty} hsir_s{i} = ({ty})(hsir_a{i}); \\");
            let _ = writeln!(
                h,
                "    hsir_record(hsir_f, \"in\", {i}, &hsir_s{i}, sizeof(hsir_s{i})); \\"
            );
            actuals.push(format!("hsir_s{i}"));
        }
    }
    let call = format!("kernel({})", actuals.join(", "));
    if plan.ret.is_some() {
        let _ = writeln!(h, "    __typeof__({call}) hsir_r = {call}; \\");
        let _ = writeln!(h, "    hsir_record(hsir_f, \"ret\", 0, &hsir_r, sizeof(hsir_r)); \\");
    } else {
        let _ = writeln!(h, "    {call}; \\");
    }
    for (i, p) in plan.params.iter().enumerate() {
        if p.array.is_some() {
            let _ = writeln!(
                h,
                "    hsir_record(hsir_f, \"out\", {i}, (hsir_a{i}), sizeof(hsir_a{i})); \\"
            );
        }
    }
    let _ = writeln!(h, "    fclose(hsir_f); \\");
    h.push_str("  } while (0)\n");
    h.push_str("\n#endif\n");
    h
}

/// What the C run recorded, in words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CRun {
    /// One invocation's inputs: one token per argument (control tokens 0), array contents.
    pub inputs: Inputs,
    /// The return value, when the function returns data.
    pub ret: Option<u64>,
    /// The arrays after the call, by memory name.
    pub memories: BTreeMap<String, Vec<u64>>,
}

/// Reads the record the header's `CALL_KERNEL` wrote.
pub fn read_record(plan: &Plan, text: &str) -> Result<CRun, String> {
    let mut inputs: Vec<Option<Vec<u8>>> = vec![None; plan.params.len()];
    let mut outputs: Vec<Option<Vec<u8>>> = vec![None; plan.params.len()];
    let mut ret = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let bad = || format!("line {} of the C run's record is malformed", number + 1);
        let mut parts = line.split(' ');
        let (what, index, size) = (parts.next(), parts.next(), parts.next());
        let hex = parts.next().unwrap_or("");
        let index: usize = index.and_then(|i| i.parse().ok()).ok_or_else(bad)?;
        let size: usize = size.and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        if hex.len() != 2 * size {
            return Err(bad());
        }
        let bytes: Vec<u8> = (0..size)
            .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16))
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let slot = match what {
            Some("in") => inputs.get_mut(index),
            Some("out") => outputs.get_mut(index),
            Some("ret") => {
                ret = Some(bytes);
                continue;
            }
            _ => return Err(bad()),
        };
        *slot.ok_or_else(bad)? = Some(bytes);
    }
    let mut run = CRun::default();
    run.inputs.args = vec![vec![0]; plan.arg_count];
    for (i, p) in plan.params.iter().enumerate() {
        let Some(bytes) = &inputs[i] else {
            return Err(format!(
                "the C program did not record argument {} (`{}`): did `main` call CALL_KERNEL?",
                i + 1,
                p.name
            ));
        };
        match &p.array {
            Some((memory, words)) => {
                run.inputs.args[p.arg] = Vec::new();
                run.inputs.memories.insert(memory.clone(), array_words(p, *words, bytes)?);
                let after = outputs[i].as_ref().ok_or_else(|| {
                    format!("the C program did not record array `{}` after the call", p.name)
                })?;
                run.memories.insert(memory.clone(), array_words(p, *words, after)?);
            }
            None => run.inputs.args[p.arg] = vec![scalar_word(bytes, p.width, p.float, &p.name)?],
        }
    }
    if let Some(r) = &plan.ret {
        let bytes = ret.ok_or("the C program did not record the kernel's return value")?;
        run.ret = Some(scalar_word(&bytes, r.width, r.float, "the return value")?);
    }
    Ok(run)
}

/// A scalar's bytes as a word: little-endian, masked to `width`.
fn scalar_word(bytes: &[u8], width: u32, float: bool, what: &str) -> Result<u64, String> {
    if float && bytes.len() * 8 != width as usize {
        return Err(format!(
            "{what} is {} bytes in C; the IR's f{width} needs {}",
            bytes.len(),
            width / 8
        ));
    }
    if bytes.is_empty() || bytes.len() > 8 {
        return Err(format!("{what} is {} bytes in C; cosim reads 1 to 8", bytes.len()));
    }
    Ok(little_endian(bytes) & mask(width))
}

fn little_endian(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// An array's bytes as `words` words of `p`'s width.
fn array_words(p: &Param, words: u64, bytes: &[u8]) -> Result<Vec<u64>, String> {
    let size = bytes.len() as u64;
    let element = size.checked_div(words).unwrap_or(0);
    let whole = words > 0 && size.is_multiple_of(words) && matches!(element, 1 | 2 | 4 | 8);
    let wide_enough = element * 8 >= u64::from(p.width);
    let exact = !p.float || element * 8 == u64::from(p.width);
    if !whole || !wide_enough || !exact {
        return Err(format!(
            "array `{}` is {size} bytes in C, but the IR's memref has {words} words of {} bits: pass the array itself (its `sizeof` must be its whole size) with elements of the IR's type",
            p.name, p.width
        ));
    }
    Ok(bytes.chunks(element as usize).map(|chunk| little_endian(chunk) & mask(p.width)).collect())
}

/// The testbench's stimulus for one invocation on `inputs`: no stalls, one token expected per
/// result, outputs and memories reported for the caller to compare.
pub fn stimulus(func: &Func, netlist: &Netlist, inputs: &Inputs, max_cycles: u64) -> Stimulus {
    let top = netlist.top();
    let tokens: Vec<Vec<u64>> = func
        .args()
        .iter()
        .zip(&inputs.args)
        .filter(|(&arg, _)| func.ty(arg).and_then(crate::program::memref_shape).is_none())
        .map(|(_, tokens)| tokens.clone())
        .collect();
    let memories = inputs
        .memories
        .iter()
        .filter(|(name, _)| top.memories.iter().any(|m| &m.name == *name))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Stimulus {
        inputs: tokens,
        memories,
        outputs: vec![vec![0]; top.outputs.len()],
        max_cycles,
        probe_leftovers: true,
        stalls: false,
        mode: Mode::Report,
        seed: 1,
        ..Stimulus::default()
    }
}

/// What the testbench of `stimulus` printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RtlRun {
    /// Tokens per output port (`None`: undefined bits).
    pub outputs: Vec<Vec<Option<u64>>>,
    /// Memory words at `end` (the cycle after the last expected output token), by name.
    pub memories: BTreeMap<String, Vec<Option<u64>>>,
    /// Memory words once the drain after `end` ended, by name (none if it did not end).
    pub drained: BTreeMap<String, Vec<Option<u64>>>,
    /// Every write that landed after `end`, in order.
    pub late: Vec<LateWrite>,
    /// How the drain ended, when it did.
    pub drain: Option<Drain>,
    pub cycles: Option<u64>,
    /// Cycles from the first input token to the last write before `end` that changed a word.
    pub last_change: Option<u64>,
    /// The testbench's `FAIL` lines (a deadlock, missing outputs).
    pub failures: Vec<String>,
    /// Whether the testbench finished with `PASS`.
    pub passed: bool,
}

impl RtlRun {
    /// The memories to compare with C: drained when the drain ended, else as at `end`.
    pub fn final_memories(&self) -> &BTreeMap<String, Vec<Option<u64>>> {
        if self.drain.is_some() {
            &self.drained
        } else {
            &self.memories
        }
    }
}

/// One memory write that landed after `end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateWrite {
    pub memory: String,
    pub address: u64,
    /// Cycles after `end`'s token (1: the cycle after it).
    pub after: u64,
    pub value: Option<u64>,
}

/// How the drain after `end` ended (`testbench`'s report mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drain {
    /// Cycles from `end` to the drained memories.
    pub cycles: u64,
    /// `quiet` (nothing moved for `SETTLE_CYCLES`), `no-writes` (the circuit runs on but wrote
    /// nothing for `IDLE_CYCLES`) or `cap` (still writing `DRAIN_CYCLES` after `end`).
    pub how: String,
}

/// The writes that landed in one array after `end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateWrites {
    /// The array's name (the C parameter's).
    pub output: String,
    pub count: usize,
    /// Cycles after `end` of the first and the last of them.
    pub first_after: u64,
    pub last_after: u64,
    /// The elements whose value at `end` differs from their value once the writes landed: a
    /// caller reading the array when `end` fires sees them stale.
    pub stale: Vec<usize>,
    /// Cycles after `end` of the last write to a stale element: from then on the array holds
    /// its final values (`None` when no element was stale).
    pub final_after: Option<u64>,
}

impl LateWrites {
    /// `5 writes landed 1–13 cycles after `end``, and the elements stale at `end`.
    pub fn describe(&self) -> String {
        let when = if self.first_after == self.last_after {
            format!("{} cycle{}", self.first_after, if self.first_after == 1 { "" } else { "s" })
        } else {
            format!("{}–{} cycles", self.first_after, self.last_after)
        };
        let writes = if self.count == 1 { "1 write" } else { "writes" };
        let count = if self.count == 1 { String::new() } else { format!("{} ", self.count) };
        if self.stale.is_empty() {
            return format!(
                "{count}{writes} landed {when} after `end`, leaving every element as it was at `end`"
            );
        }
        format!(
            "{count}{writes} landed {when} after `end` (a caller reading memory when `end` fires sees {} stale)",
            element_ranges(&self.output, &self.stale)
        )
    }

    /// Whether a caller reading the array when `end` fires sees a value that is not final.
    pub fn stale_at_end(&self) -> bool {
        !self.stale.is_empty()
    }
}

/// Cycles from the first input token to the write from which every array holds its final
/// values: the last write that changed an element, before `end` (`last_change`) or after it
/// (`cycles` to `end` plus the latest `final_after`). `None` when no write changed memory.
pub fn memory_final(cycles: u64, last_change: Option<u64>, late: &[LateWrites]) -> Option<u64> {
    let after_end = late.iter().filter_map(|l| l.final_after).max().map(|a| cycles + a);
    after_end.or(last_change)
}

/// `s[5..9]`, `s[2], s[4..6]`: indices (sorted) as inclusive runs.
pub fn element_ranges(name: &str, indices: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in indices {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    runs.iter()
        .map(|&(a, b)| if a == b { format!("{name}[{a}]") } else { format!("{name}[{a}..{b}]") })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Per array of `plan`, the writes of `run` that landed after `end`.
pub fn late_writes(plan: &Plan, run: &RtlRun) -> Vec<LateWrites> {
    let mut out = Vec::new();
    for p in &plan.params {
        let Some((memory, _)) = &p.array else { continue };
        let writes: Vec<&LateWrite> = run.late.iter().filter(|w| &w.memory == memory).collect();
        let (Some(first), Some(last)) = (writes.first(), writes.last()) else { continue };
        let at_end = run.memories.get(memory).map_or(&[][..], Vec::as_slice);
        let after = run.final_memories().get(memory).map_or(&[][..], Vec::as_slice);
        let stale: Vec<usize> =
            (0..at_end.len().max(after.len())).filter(|&k| at_end.get(k) != after.get(k)).collect();
        let final_after = writes
            .iter()
            .filter(|w| usize::try_from(w.address).is_ok_and(|a| stale.binary_search(&a).is_ok()))
            .map(|w| w.after)
            .max();
        out.push(LateWrites {
            output: p.name.clone(),
            count: writes.len(),
            first_after: first.after,
            last_after: last.after,
            stale,
            final_after,
        });
    }
    out
}

/// Reads the testbench's `hsir-tb:` lines.
pub fn read_rtl_output(outputs: usize, text: &str) -> RtlRun {
    let mut run = RtlRun { outputs: vec![Vec::new(); outputs], ..RtlRun::default() };
    let value = |t: &str| u64::from_str_radix(t, 16).ok();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("hsir-tb: ") else { continue };
        let words: Vec<&str> = rest.split(' ').collect();
        match words.as_slice() {
            ["out", j, v] => {
                if let Some(list) = j.parse::<usize>().ok().and_then(|j| run.outputs.get_mut(j)) {
                    list.push(value(v));
                }
            }
            [which @ ("mem" | "drained"), name, k, v] => {
                let memories = if *which == "mem" { &mut run.memories } else { &mut run.drained };
                let list = memories.entry(name.to_string()).or_default();
                if k.parse::<usize>().ok() == Some(list.len()) {
                    list.push(value(v));
                }
            }
            ["late", name, address, after, v] => {
                if let (Ok(address), Ok(after)) = (address.parse(), after.parse()) {
                    run.late.push(LateWrite {
                        memory: name.to_string(),
                        address,
                        after,
                        value: value(v),
                    });
                }
            }
            ["drain", n, how] => {
                if let Ok(cycles) = n.parse() {
                    run.drain = Some(Drain { cycles, how: how.to_string() });
                }
            }
            ["cycles", n] => run.cycles = n.parse().ok(),
            ["last-change", n] => run.last_change = n.parse().ok(),
            ["PASS"] => run.passed = true,
            ["FAIL"] => {}
            ["FAIL", ..] => run.failures.push(rest["FAIL ".len()..].to_string()),
            _ => {}
        }
    }
    run
}

/// One output's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputVerdict {
    /// `return` or the array's name.
    pub name: String,
    pub pass: bool,
    /// Elements that differ (1 for a return value that differs or is missing).
    pub mismatches: usize,
    pub elements: usize,
}

/// One element that differs from C.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// `return` or the array's name.
    pub output: String,
    pub index: Option<usize>,
    /// As the side computed it, `nothing` when it sent no token, `x` for undefined bits.
    pub got: String,
    pub expected: String,
}

impl Mismatch {
    /// `name[index]: got X, C says Y`.
    pub fn describe(&self) -> String {
        let at = match self.index {
            Some(i) => format!("{}[{i}]", self.output),
            None => self.output.clone(),
        };
        format!("{at}: got {}, C says {}", self.got, self.expected)
    }
}

/// What one side (the interpreter or the RTL) computed, against C.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Side {
    pub outputs: Vec<OutputVerdict>,
    /// The first mismatching elements of each output (at most `SHOWN_MISMATCHES` each).
    pub mismatches: Vec<Mismatch>,
    /// Why it could not be judged (the interpreter refused the function, the simulation
    /// deadlocked), when it could not.
    pub error: Option<String>,
    /// The arrays written after `end` (the RTL only: the interpreter is untimed).
    pub late_writes: Vec<LateWrites>,
}

impl Side {
    /// Equal to C once every write landed, and already when `end` fired.
    pub fn pass(&self) -> bool {
        self.reason().is_none()
    }

    /// Why the side fails: `error` (no verdict on its values), `wrong values` (some output
    /// differs from C), or `late writes` (every value equals C once the writes landed, but some
    /// landed after `end` and changed an element: `end` came before memory was final). Writes
    /// after `end` that leave every element as it was (a circuit that runs on and rewrites the
    /// same values) are reported, not failed.
    pub fn reason(&self) -> Option<&'static str> {
        if self.error.is_some() {
            Some("error")
        } else if !self.outputs.iter().all(|o| o.pass) {
            Some("wrong values")
        } else if self.late_writes.iter().any(LateWrites::stale_at_end) {
            Some("late writes")
        } else {
            None
        }
    }

    pub fn failed(error: String) -> Side {
        Side { error: Some(error), ..Side::default() }
    }
}

/// A word as a person reads it: a float as a float, an integer signed.
pub fn show(word: u64, width: u32, float: bool) -> String {
    crate::sim::stimulus::format_value(word, width, float)
}

/// Compares one side's return tokens and memories with C's.
pub fn compare(
    plan: &Plan,
    c: &CRun,
    results: &[Vec<Option<u64>>],
    memories: &BTreeMap<String, Vec<Option<u64>>>,
) -> Side {
    let mut side = Side::default();
    let same = |got: u64, want: u64, width: u32, float: bool| {
        got == want
            || (float && show(got, width, true) == "NaN" && show(want, width, true) == "NaN")
    };
    let shown = |got: Option<&Option<u64>>, width: u32, float: bool| match got {
        None => "nothing".to_string(),
        Some(None) => "x".to_string(),
        Some(Some(w)) => show(*w, width, float),
    };
    if let (Some(r), Some(want)) = (&plan.ret, c.ret) {
        let tokens = results.get(r.result).map_or(&[][..], Vec::as_slice);
        let got = tokens.first();
        let ok = matches!(got, Some(Some(g)) if same(*g, want, r.width, r.float));
        if !ok {
            side.mismatches.push(Mismatch {
                output: RETURN.into(),
                index: None,
                got: shown(got, r.width, r.float),
                expected: show(want, r.width, r.float),
            });
        }
        side.outputs.push(OutputVerdict {
            name: RETURN.into(),
            pass: ok,
            mismatches: usize::from(!ok),
            elements: 1,
        });
    }
    for p in &plan.params {
        let Some((memory, _)) = &p.array else { continue };
        let want = c.memories.get(memory).map_or(&[][..], Vec::as_slice);
        let got = memories.get(memory).map_or(&[][..], Vec::as_slice);
        let mut count = 0;
        for (k, &w) in want.iter().enumerate() {
            let g = got.get(k);
            let ok = matches!(g, Some(Some(v)) if same(*v, w, p.width, p.float));
            if !ok {
                count += 1;
                if count <= SHOWN_MISMATCHES {
                    side.mismatches.push(Mismatch {
                        output: p.name.clone(),
                        index: Some(k),
                        got: shown(g, p.width, p.float),
                        expected: show(w, p.width, p.float),
                    });
                }
            }
        }
        side.outputs.push(OutputVerdict {
            name: p.name.clone(),
            pass: count == 0,
            mismatches: count,
            elements: want.len(),
        });
    }
    side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_little_endian_and_masked() {
        let p = Param {
            arg: 0,
            name: "a".into(),
            width: 32,
            float: false,
            array: Some(("a".into(), 2)),
        };
        assert_eq!(
            array_words(&p, 2, &[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]).unwrap(),
            vec![1, 0xffff_ffff]
        );
        // 3 bytes cannot be 2 words; a double (8 bytes) is not the IR's f32.
        assert!(array_words(&p, 2, &[0, 0, 0]).unwrap_err().contains("3 bytes"));
        let f = Param { float: true, ..p.clone() };
        let double = array_words(&f, 1, &[0; 8]).unwrap_err();
        assert!(double.contains("8 bytes") && double.contains("1 words of 32 bits"), "{double}");
        assert_eq!(
            scalar_word(&[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 32, false, "x"),
            Ok(0xffff_fffe)
        );
        assert!(scalar_word(&[0; 8], 32, true, "x").unwrap_err().contains("f32"));
    }

    #[test]
    fn testbench_lines_are_read() {
        let run = read_rtl_output(
            2,
            "hsir-tb: out 0 2a\nhsir-tb: out 1 0\nhsir-tb: mem m 0 5\nhsir-tb: mem m 1 x\nhsir-tb: cycles 17\nhsir-tb: FAIL deadlock: nothing moved\nhsir-tb: FAIL\n",
        );
        assert_eq!(run.outputs, vec![vec![Some(42)], vec![Some(0)]]);
        assert_eq!(run.memories["m"], vec![Some(5), None]);
        assert_eq!(run.cycles, Some(17));
        assert_eq!(run.failures, vec!["deadlock: nothing moved".to_string()]);
        assert!(!run.passed);
        assert_eq!(run.drain, None);
        // No drain: the memories at `end` are the final ones.
        assert_eq!(run.final_memories(), &run.memories);
    }

    #[test]
    fn late_writes_name_the_stale_elements_and_keep_harmless_rewrites_apart() {
        let plan = Plan {
            func: "f".into(),
            params: vec![Param {
                arg: 0,
                name: "s".into(),
                width: 32,
                float: false,
                array: Some(("s".into(), 4)),
            }],
            arg_count: 2,
            ret: None,
            result_count: 1,
        };
        let printed = "hsir-tb: mem s 0 1\nhsir-tb: mem s 1 0\nhsir-tb: mem s 2 0\nhsir-tb: mem s 3 3\n\
            hsir-tb: late s 1 1 5\nhsir-tb: late s 2 7 6\nhsir-tb: late s 3 9 3\n\
            hsir-tb: drained s 0 1\nhsir-tb: drained s 1 5\nhsir-tb: drained s 2 6\nhsir-tb: drained s 3 3\n\
            hsir-tb: drain 73 quiet\nhsir-tb: PASS\n";
        let run = read_rtl_output(1, printed);
        assert_eq!(run.drain, Some(Drain { cycles: 73, how: "quiet".into() }));
        assert_eq!(run.final_memories()["s"], vec![Some(1), Some(5), Some(6), Some(3)]);
        let late = late_writes(&plan, &run);
        assert_eq!(late.len(), 1);
        assert_eq!((late[0].count, late[0].first_after, late[0].last_after), (3, 1, 9));
        // s[3] was rewritten with the value it had: not stale.
        assert_eq!(late[0].stale, vec![1, 2]);
        // s[2]'s write, 7 cycles after `end`, was the last to change an element; s[3]'s at 9
        // changed nothing.
        assert_eq!(late[0].final_after, Some(7));
        assert_eq!(memory_final(100, Some(95), &late), Some(107));
        assert_eq!(memory_final(100, Some(95), &[]), Some(95));
        assert_eq!(memory_final(100, None, &[]), None);
        assert_eq!(
            late[0].describe(),
            "3 writes landed 1–9 cycles after `end` (a caller reading memory when `end` fires sees s[1..2] stale)"
        );
        assert_eq!(element_ranges("y", &[0, 1, 2, 5, 7, 8]), "y[0..2], y[5], y[7..8]");
        let side = Side { late_writes: late.clone(), ..Side::default() };
        assert_eq!(side.reason(), Some("late writes"));
        let rewrites = LateWrites { stale: Vec::new(), final_after: None, ..late[0].clone() };
        assert!(rewrites.describe().ends_with("leaving every element as it was at `end`"));
        assert!(Side { late_writes: vec![rewrites], ..Side::default() }.pass());
    }

    #[test]
    fn mismatches_name_the_element_and_show_floats() {
        let plan = Plan {
            func: "f".into(),
            params: vec![Param {
                arg: 0,
                name: "y".into(),
                width: 32,
                float: true,
                array: Some(("y".into(), 2)),
            }],
            arg_count: 2,
            ret: Some(Ret { result: 0, width: 32, float: false }),
            result_count: 2,
        };
        let c = CRun {
            ret: Some(7),
            memories: [("y".to_string(), vec![1.5f32.to_bits().into(), 2.0f32.to_bits().into()])]
                .into(),
            ..CRun::default()
        };
        let got: BTreeMap<String, Vec<Option<u64>>> =
            [("y".to_string(), vec![Some(1.5f32.to_bits().into()), Some(2.5f32.to_bits().into())])]
                .into();
        let side = compare(&plan, &c, &[vec![Some(0xffff_ffff)], vec![Some(0)]], &got);
        assert!(!side.pass());
        let shown: Vec<String> = side.mismatches.iter().map(Mismatch::describe).collect();
        assert_eq!(shown, vec!["return: got -1, C says 7", "y[1]: got 2.5, C says 2.0"]);
        assert_eq!(side.outputs[1].mismatches, 1);
    }
}
