//! Test inputs for a design: what its comments say about meaningful inputs, and deterministic
//! pseudo-random tokens within that, so the interpreter's tests and the RTL simulations drive a
//! design alike.
//!
//! Directives are comment lines `// hsir-sim: key=value ...`. Those in the comment lines right
//! above a function (no blank line between) apply to it; those elsewhere before the file's
//! first item apply to every function of the file, the function's own taking precedence. Keys:
//! - `tokens=N`: tokens per argument (one per invocation); 3 when not said.
//! - `NAME=LO..HI`: the argument `NAME` (its SSA name without `%`, or its `argNames` name) takes
//!   values from `LO` to `HI` (inclusive, signed); for a memory, every word does.
//! - `NAME=A,B,C`: exactly these tokens (or these first words of a memory).
//!
//! Arguments without a directive take values of their full width; control tokens are 0;
//! argument memories are filled at random; internal memories start at 0.

use std::collections::BTreeMap;

use super::{Inputs, MAX_MEMORY_WORDS};
use crate::memories::{memories, MemoryKind};
use crate::program::{mask, Func, Program};
use crate::random::SplitMix;

/// The tokens per argument when no directive says.
pub const DEFAULT_TOKENS: usize = 3;

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
    let mut out = Directives { tokens: DEFAULT_TOKENS, values: BTreeMap::new() };
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
    let known = arg_index(func, key).is_some();
    if !known {
        return Err(format!("`@{}` has no argument or memory `{key}`", func.name));
    }
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
            value.split(',').map(|v| v.parse().map_err(|_| bad())).collect::<Result<_, _>>()?,
        ),
    };
    out.values.insert(key.to_string(), values);
    Ok(())
}

/// The argument called `name` (SSA name without `%`, or port name).
fn arg_index(func: &Func, name: &str) -> Option<usize> {
    let args = func.args();
    let ports = func.arg_names();
    (0..args.len()).find(|&i| {
        func.item.values[args[i] as usize].name.trim_start_matches('%') == name
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
