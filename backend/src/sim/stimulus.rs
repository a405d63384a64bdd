//! Test inputs for a design: what its comments say about meaningful inputs, and deterministic
//! pseudo-random tokens within that, so the interpreter's tests and the RTL simulations drive a
//! design alike.
//!
//! Directives are comment lines `// hsir-sim: key=value ...`. Those in the comment lines right
//! above a function (no blank line between) apply to it; those elsewhere before the file's
//! first item apply to every function of the file, the function's own taking precedence. Keys:
//! - `tokens=N`: tokens per argument (one per invocation); when not said, 1 for a function with
//!   Dynamatic's memory interfaces (`mem_controller`, `lsq`), 3 for any other (`default_tokens`).
//! - `NAME=LO..HI`: the argument `NAME` (its SSA name without `%`, or its `argNames` name) takes
//!   values from `LO` to `HI` (inclusive, signed); for a memory, every word does.
//! - `NAME=A,B,C`: exactly these tokens (or these first words of a memory).
//!
//! A value is a decimal integer (`-` for two's complement), a hex integer (`0x1f`), or, for an
//! argument or memory of a float type, a float with a point or an exponent (`1.5`, `-2e3`,
//! `inf`, `nan`), taken as its bit pattern; integers are bit patterns there too. A value must
//! fit the width as a signed or an unsigned number.
//!
//! An inputs file (`hsir sim --inputs`, `hsir rtl --testbench --inputs`, written by
//! `hsir cosim -o`) holds the same entries, one per line, with spaces allowed around `=` and
//! `,` (`NAME = 1, 2, 3`; `NAME =` for no tokens), and `//` or `#` comments; its entries take
//! precedence over the directives (`read_inputs_file`).
//!
//! Arguments without a directive take values of their full width; control tokens are 0;
//! argument memories are filled at random; internal memories start at 0.

use std::collections::BTreeMap;

use hsir_analysis::signatures::Style;
use hsir_analysis::types::Type;

use super::{Inputs, MAX_MEMORY_WORDS};
use crate::memories::{memories, InterfaceKind, MemoryKind};
use crate::program::{mask, Func, Program};
use crate::random::SplitMix;

/// The tokens per argument when no directive says, for a function without Dynamatic's memory
/// interfaces.
pub const DEFAULT_TOKENS: usize = 3;

/// The tokens per argument when no directive says: one invocation for a function with
/// Dynamatic's memory interfaces (`mem_controller`, `lsq`), whose circuits are not re-entrant
/// (an interface serves one run's requests, and a second run's start token overtakes the
/// first's accesses: three overlapping invocations deadlock Dynamatic's own kernels); otherwise
/// `DEFAULT_TOKENS`.
pub fn default_tokens(func: &Func) -> usize {
    let dynamatic = memories(func)
        .iter()
        .flat_map(|m| &m.interfaces)
        .any(|i| matches!(i.kind, InterfaceKind::MemController | InterfaceKind::Lsq));
    if dynamatic {
        1
    } else {
        DEFAULT_TOKENS
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directives {
    pub tokens: usize,
    /// By argument or memory name.
    pub values: BTreeMap<String, Values>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Inclusive bounds.
    Range(i64, i64),
    List(Vec<i64>),
}

/// The directives for `func`, read from the text of the file `program` was made from.
pub fn directives(file_text: &str, program: &Program, func: &Func) -> Result<Directives, String> {
    let first = program
        .funcs
        .iter()
        .map(|f| usize::from(f.offset))
        .chain(program.modules.iter().map(|m| usize::from(m.offset)))
        .min()
        .unwrap_or(0);
    let file = file_text.get(..attached(file_text, first)).unwrap_or("");
    let start = usize::from(func.offset);
    let own = file_text.get(attached(file_text, start)..start).unwrap_or("");
    let mut out = Directives { tokens: default_tokens(func), values: BTreeMap::new() };
    for region in [file, own] {
        for line in region.lines() {
            let Some(rest) = line.trim().strip_prefix("// hsir-sim:") else { continue };
            for entry in rest.split_whitespace() {
                read(func, entry, &mut out)?;
            }
        }
    }
    Ok(out)
}

/// Where the comment lines right above `offset` (no blank line between) start.
fn attached(text: &str, offset: usize) -> usize {
    let mut start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    while start > 0 {
        let previous = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if !text[previous..start].trim_start().starts_with("//") {
            break;
        }
        start = previous;
    }
    start
}

fn read(func: &Func, entry: &str, out: &mut Directives) -> Result<(), String> {
    let bad = || format!("`{entry}` is not a directive (`tokens=N`, `NAME=LO..HI`, `NAME=A,B`)");
    let (key, value) = entry.split_once('=').ok_or_else(bad)?;
    if key == "tokens" {
        out.tokens = value.parse().map_err(|_| bad())?;
        return Ok(());
    }
    let Some(index) = arg_index(func, key) else {
        return Err(format!("`@{}` has no argument or memory `{key}`", func.name));
    };
    let values = match value.split_once("..") {
        Some((lo, hi)) => {
            let (lo, hi): (i64, i64) =
                (lo.parse().map_err(|_| bad())?, hi.parse().map_err(|_| bad())?);
            if lo > hi {
                return Err(bad());
            }
            Values::Range(lo, hi)
        }
        None => Values::List(
            parse_list(func, index, value)
                .map_err(|e| format!("`{key}`: {e}"))?
                .into_iter()
                .map(|w| w as i64)
                .collect(),
        ),
    };
    out.values.insert(key.to_string(), values);
    Ok(())
}

/// The width of argument `index`'s data (a memory's words), and whether it is a float.
pub fn arg_type(func: &Func, index: usize) -> Option<(u32, bool)> {
    let ty = func.ty(*func.args().get(index)?)?;
    let data = match ty {
        Type::MemRef { elem, .. } => elem.as_ref().clone(),
        other => match other.as_channel(func.style == Style::Circt) {
            Some(Type::Channel { data, .. }) => *data,
            Some(Type::Control { .. }) => return Some((0, false)),
            _ => other.clone(),
        },
    };
    let float = matches!(data, Type::Float { .. });
    Some((crate::program::scalar_width(&data)?, float))
}

/// A comma-separated list of values for argument `index` of `func` (module comment), as words
/// of its width; control tokens are 0. Empty text is an empty list.
pub fn parse_list(func: &Func, index: usize, text: &str) -> Result<Vec<u64>, String> {
    let (width, float) = arg_type(func, index).unwrap_or((64, false));
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',').map(|item| parse_value(item.trim(), width, float)).collect()
}

/// One value as a word of `width` bits (0 for a control token, `width` 0).
pub fn parse_value(text: &str, width: u32, float: bool) -> Result<u64, String> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let integer = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X"))
    {
        Some(u64::from_str_radix(hex, 16).map_err(|_| format!("`{text}` is not a hex integer"))?)
    } else {
        digits.parse::<u64>().ok()
    };
    let word = match integer {
        Some(magnitude) => {
            let value = if negative { -i128::from(magnitude) } else { i128::from(magnitude) };
            let bits = width.clamp(1, 64);
            let fits = value >= -(1i128 << (bits - 1)) && value < (1i128 << bits);
            if !fits {
                return Err(format!("`{text}` does not fit in {bits} bits"));
            }
            value as u64
        }
        None if float && width == 32 => {
            let v: f32 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
            u64::from(v.to_bits())
        }
        None if float && width == 64 => {
            let v: f64 = text.parse().map_err(|_| format!("`{text}` is not a number"))?;
            v.to_bits()
        }
        None => return Err(format!("`{text}` is not an integer")),
    };
    Ok(if width == 0 { 0 } else { word & mask(width) })
}

/// Applies an inputs file (module comment) over `directives`. Errors name the line.
pub fn read_inputs_file(
    func: &Func,
    text: &str,
    directives: &mut Directives,
) -> Result<(), String> {
    for (number, line) in text.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let line = line.split('#').next().unwrap_or("");
        let entry: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if entry.is_empty() {
            continue;
        }
        if !entry.contains('=') {
            return Err(format!("line {}: `{}` is not `NAME = values`", number + 1, line.trim()));
        }
        read_entry(func, &entry, directives).map_err(|e| format!("line {}: {e}", number + 1))?;
    }
    Ok(())
}

/// One entry, where an empty list (`NAME=`) means no tokens.
fn read_entry(func: &Func, entry: &str, out: &mut Directives) -> Result<(), String> {
    if let Some(key) = entry.strip_suffix('=').filter(|k| !k.contains('=')) {
        if key != "tokens" {
            if arg_index(func, key).is_none() {
                return Err(format!("`@{}` has no argument or memory `{key}`", func.name));
            }
            out.values.insert(key.to_string(), Values::List(Vec::new()));
            return Ok(());
        }
    }
    read(func, entry, out)
}

/// The text of an inputs file giving exactly `inputs` to `func`: one line per argument and
/// memory, floats written as floats when that gives their bits back.
pub fn write_inputs_file(func: &Func, inputs: &Inputs, header: &str) -> String {
    let specs = memories(func);
    let names = func.arg_names();
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(&format!("// {line}\n"));
    }
    out.push_str("tokens = 1\n");
    for (i, &value) in func.args().iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| {
            func.item
                .str(func.item.values[value as usize].name())
                .trim_start_matches('%')
                .to_string()
        });
        let (width, float) = arg_type(func, i).unwrap_or((64, false));
        let words: &[u64] = match specs.iter().find(|m| m.kind == MemoryKind::Argument(i)) {
            Some(spec) => inputs.memories.get(&spec.name).map_or(&[], Vec::as_slice),
            None => inputs.args.get(i).map_or(&[], Vec::as_slice),
        };
        let text: Vec<String> = words.iter().map(|&w| format_value(w, width, float)).collect();
        out.push_str(&format!("{name} = {}\n", text.join(", ")));
    }
    out
}

/// A word as an inputs file writes it: a float that reads back to the same bits, else the
/// integer (signed when its top bit is set).
pub fn format_value(word: u64, width: u32, float: bool) -> String {
    if float && width == 32 {
        let v = f32::from_bits(word as u32);
        if v.is_finite() {
            return format!("{v:?}");
        }
        return format!("0x{word:x}");
    }
    if float && width == 64 {
        let v = f64::from_bits(word);
        if v.is_finite() {
            return format!("{v:?}");
        }
        return format!("0x{word:x}");
    }
    if width == 0 {
        return "0".to_string();
    }
    let w = width.min(64);
    let signed = if w < 64 && word >> (w - 1) & 1 == 1 {
        word as i128 - (1i128 << w)
    } else if w == 64 {
        i128::from(word as i64)
    } else {
        i128::from(word)
    };
    signed.to_string()
}

/// The argument called `name` (SSA name without `%`, or port name).
fn arg_index(func: &Func, name: &str) -> Option<usize> {
    let args = func.args();
    let ports = func.arg_names();
    (0..args.len()).find(|&i| {
        func.item.str(func.item.values[args[i] as usize].name()).trim_start_matches('%') == name
            || ports.get(i).is_some_and(|p| p == name)
    })
}

/// The directive for argument `i`, under either of its names.
fn values_of<'d>(func: &Func, directives: &'d Directives, i: usize) -> Option<&'d Values> {
    directives.values.iter().find(|(k, _)| arg_index(func, k) == Some(i)).map(|(_, v)| v)
}

/// Inputs for `func` as the directives describe, drawn from `seed`.
pub fn inputs(func: &Func, directives: &Directives, seed: u64) -> Inputs {
    let mut rng = SplitMix(seed);
    let specs = memories(func);
    let mut inputs = Inputs::default();
    for (i, &value) in func.args().iter().enumerate() {
        if let Some(spec) = specs.iter().find(|m| m.kind == MemoryKind::Argument(i)) {
            inputs.args.push(Vec::new());
            let m = mask(spec.width);
            let depth = spec.depth.min(MAX_MEMORY_WORDS);
            let words = match values_of(func, directives, i) {
                Some(Values::List(list)) => list.iter().map(|&v| v as u64 & m).collect(),
                Some(&Values::Range(lo, hi)) => {
                    (0..depth).map(|_| rng.between(lo, hi) & m).collect()
                }
                None => (0..depth).map(|_| rng.next() & m).collect(),
            };
            inputs.memories.insert(spec.name.clone(), words);
            continue;
        }
        let Some(shape) = func.shape(value) else {
            inputs.args.push(Vec::new());
            continue;
        };
        let m = if shape.control { 0 } else { shape.mask() };
        let tokens = match values_of(func, directives, i) {
            Some(Values::List(list)) => list.iter().map(|&v| v as u64 & m).collect(),
            Some(&Values::Range(lo, hi)) => {
                (0..directives.tokens).map(|_| rng.between(lo, hi) & m).collect()
            }
            None => (0..directives.tokens).map(|_| rng.next() & m).collect(),
        };
        inputs.args.push(tokens);
    }
    inputs
}

/// A seed from a name (FNV-1a), e.g. a file name and a function.
pub fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}
