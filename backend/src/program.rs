//! What the backend reads: the `handshake.func`s and `hw.module`s of one file, lowered and
//! typed by the analysis, with the shapes of their channels and memories decided once for the
//! interpreter, the netlist and the testbench alike.

use std::collections::HashMap;

use hsir_analysis::ir::{self, Item, OpData, ValueId};
use hsir_analysis::signatures::Style;
use hsir_analysis::types::Type;
use hsir_analysis::{Callee, Diagnostic, Parse, Severity, TextSize};

/// The widest data bus the backend carries (tokens are `u64` in the interpreter and testbench).
pub const MAX_WIDTH: u32 = 64;

/// Bits of `index`, as CIRCT lowers it.
pub const INDEX_WIDTH: u32 = 64;

/// One `handshake.func`, lowered and typed.
#[derive(Debug, Clone)]
pub struct Func {
    /// The symbol, without `@`.
    pub name: String,
    pub item: Item,
    /// The item's own text (every range in `item` is relative to it).
    pub text: String,
    /// Where the item starts in the file.
    pub offset: TextSize,
    /// Each value's type, as the analysis inferred it.
    pub types: Vec<Option<Type>>,
    pub style: Style,
    /// A declaration without a body.
    pub external: bool,
}

/// One `hw.module` (pipelines live in these).
#[derive(Debug, Clone)]
pub struct HwModule {
    pub name: String,
    pub item: Item,
    pub text: String,
    pub offset: TextSize,
}

/// The backend's view of a file.
#[derive(Debug, Clone, Default)]
pub struct Program {
    pub funcs: Vec<Func>,
    pub modules: Vec<HwModule>,
}

/// What one channel carries: its data bits (downstream extra signals included) and whether it
/// is a control channel (no data; the netlist gives it one constant bit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub data: u32,
    pub control: bool,
}

impl Shape {
    /// The width of the data bus in RTL: at least one bit.
    pub fn bits(self) -> u32 {
        self.data.max(1)
    }

    /// The mask of the data bits of a token.
    pub fn mask(self) -> u64 {
        mask(self.data)
    }
}

/// The low `width` bits set.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Bits of a scalar type: integers and floats by their width, `index` as 64.
pub fn scalar_width(ty: &Type) -> Option<u32> {
    match ty {
        Type::Int { width, .. } | Type::Float { width, .. } => Some(*width),
        Type::Index => Some(INDEX_WIDTH),
        _ => None,
    }
}

/// The channel shape of a value type in a function of `style`; `None` for types that are not
/// channels (memrefs) or whose width the backend does not know.
pub fn shape(ty: &Type, style: Style) -> Option<Shape> {
    let channel = ty.as_channel(style == Style::Circt).or_else(|| {
        // Raw types in a Dynamatic-style function (`memory` results, early Dynamatic IR).
        scalar_width(ty).map(|_| Type::Channel { data: Box::new(ty.clone()), extras: Vec::new() })
    })?;
    match &channel {
        Type::Control { extras } => {
            let down = down_extras(extras)?;
            Some(Shape { data: down, control: down == 0 })
        }
        Type::Channel { data, extras } => {
            Some(Shape { data: scalar_width(data)? + down_extras(extras)?, control: false })
        }
        _ => None,
    }
}

fn down_extras(extras: &[hsir_analysis::types::ExtraSignal]) -> Option<u32> {
    let mut sum = 0;
    for extra in extras {
        if extra.direction == hsir_analysis::types::Direction::Up {
            return None;
        }
        sum += scalar_width(&extra.ty)?;
    }
    Some(sum)
}

/// `memref<4x8xi32>`: the number of words (dimensions multiplied) and the word width.
pub fn memref_shape(ty: &Type) -> Option<(u64, u32)> {
    let Type::Other(text) = ty else { return None };
    let inner = text.strip_prefix("memref<")?.strip_suffix('>')?;
    let inner = inner.split(',').next()?;
    // Dimensions are the leading `Nx` parts; the element type may itself hold an `x` (`index`).
    let mut depth: u64 = 1;
    let mut element = inner;
    while let Some((dim, rest)) = element.split_once('x') {
        let Ok(dim) = dim.parse::<u64>() else { break };
        depth = depth.checked_mul(dim)?;
        element = rest;
    }
    let width = match element {
        "index" => INDEX_WIDTH,
        e => e.trim_start_matches(['i', 'f', 'u', 's']).parse().ok()?,
    };
    Some((depth, width))
}

impl Func {
    /// The op that is the function itself.
    pub fn op(&self) -> &OpData {
        &self.item.ops[0]
    }

    /// The function's argument values, in order.
    pub fn args(&self) -> Vec<ValueId> {
        self.item.blocks.first().map(|b| b.args.clone()).unwrap_or_default()
    }

    pub fn ty(&self, value: ValueId) -> Option<&Type> {
        self.types.get(value as usize)?.as_ref()
    }

    /// The channel shape of a value.
    pub fn shape(&self, value: ValueId) -> Option<Shape> {
        shape(self.ty(value)?, self.style)
    }

    /// Names of the arguments: `argNames` when given, else `in<N>`.
    pub fn arg_names(&self) -> Vec<String> {
        let count = self.op().signature.as_ref().map_or(0, |s| s.args.len());
        names(self.op(), "argNames", "in", count)
    }

    /// Names of the results: `resNames` when given, else `out<N>`.
    pub fn result_names(&self) -> Vec<String> {
        let count = self.op().signature.as_ref().map_or(0, |s| s.results.len());
        names(self.op(), "resNames", "out", count)
    }

    /// The text of an op, for messages.
    pub fn op_text(&self, op: &OpData) -> &str {
        let range = op.name_range;
        &self.text[usize::from(range.start())..usize::from(range.end())]
    }

    /// A range of the item made absolute in the file.
    pub fn absolute(&self, range: hsir_analysis::TextRange) -> hsir_analysis::TextRange {
        range + self.offset
    }

    /// The terminator (`return` / `end`) of the body.
    pub fn terminator(&self) -> Option<&OpData> {
        let block = self.item.blocks.first()?;
        let last = *block.ops.last()?;
        let op = &self.item.ops[last as usize];
        matches!(op.short_name(), "return" | "end").then_some(op)
    }
}

/// Port names from a `[\"a\", \"b\"]` attribute, made into Verilog identifiers and kept
/// distinct; `prefix<N>` where missing.
fn names(op: &OpData, key: &str, prefix: &str, count: usize) -> Vec<String> {
    let written = written_names(op, key);
    let mut out: Vec<String> = Vec::with_capacity(count);
    for i in 0..count {
        let base = written
            .get(i)
            .filter(|s| !s.is_empty())
            .map(|s| identifier(s))
            .unwrap_or_else(|| format!("{prefix}{i}"));
        let mut name = base.clone();
        let mut n = 1;
        while out.contains(&name) || RESERVED_PORTS.contains(&name.as_str()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// The names an `argNames` / `resNames`-style attribute writes, in order, as written.
pub fn written_names(op: &OpData, key: &str) -> Vec<String> {
    op.attr(key)
        .map(|a| {
            a.value
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .split(',')
                .map(|s| s.trim().trim_matches('"').to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// An integer attribute or literal as a two's-complement word: `5 : i32`, `-1`, `0x1F`,
/// `true`; `None` for anything else (a float, a symbol).
pub fn parse_integer(text: &str) -> Option<u64> {
    let scalar = hsir_analysis::dataflow::attribute_scalar(text).trim();
    match scalar {
        "true" => return Some(1),
        "false" => return Some(0),
        _ => {}
    }
    let (negative, digits) = match scalar.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, scalar),
    };
    let magnitude = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    Some(if negative { magnitude.wrapping_neg() } else { magnitude })
}

/// CIRCT's `initValues = [1, 2]` of a buffer; `None` when absent or not all integers.
pub fn init_values(op: &OpData) -> Option<Vec<u64>> {
    integer_list(op, "initValues")
}

/// An attribute holding a list of integers (`[1, 2]`, `[3 : i32]`); `None` when absent or not
/// all integers.
pub fn integer_list(op: &OpData, key: &str) -> Option<Vec<u64>> {
    let attr = op.attr(key)?;
    let inner = attr.value.trim().trim_start_matches('[').trim_end_matches(']');
    inner.split(',').filter(|s| !s.trim().is_empty()).map(parse_integer).collect()
}

/// Port names every top module has.
pub const RESERVED_PORTS: &[&str] = &["clk", "rst"];

/// A Verilog identifier for any text: letters, digits and `_`, not starting with a digit, and
/// not a keyword.
pub fn identifier(text: &str) -> String {
    let mut out: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if VERILOG_KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

const VERILOG_KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "begin",
    "buf",
    "case",
    "casex",
    "casez",
    "default",
    "defparam",
    "else",
    "end",
    "endcase",
    "endfunction",
    "endgenerate",
    "endmodule",
    "endtask",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "if",
    "initial",
    "inout",
    "input",
    "integer",
    "join",
    "localparam",
    "module",
    "nand",
    "negedge",
    "nor",
    "not",
    "or",
    "output",
    "parameter",
    "posedge",
    "real",
    "reg",
    "repeat",
    "signed",
    "task",
    "time",
    "tri",
    "wait",
    "while",
    "wire",
    "xnor",
    "xor",
    "logic",
    "bit",
    "byte",
    "int",
    "type",
    "do",
    "break",
    "continue",
    "return",
    "void",
    "static",
    "automatic",
    "final",
    "assert",
    "property",
    "sequence",
    "interface",
    "package",
    "import",
    "export",
    "class",
    "string",
    "event",
];

/// Whether an error means the IR cannot be lowered: syntax, types and structure.
pub fn blocks_lowering(d: &Diagnostic) -> bool {
    let code = d.code.code();
    code.starts_with("HS0") || code.starts_with("HS1")
}

impl Program {
    /// Lowers and types every function and `hw.module` of a parse. Syntax, type and structure
    /// errors of `hsir check` (HS0xxx, HS1xxx) come back instead of a program: the backend works
    /// only on IR whose ops and types are well formed. Lint findings (buffers, ctrl-done,
    /// pipelines) do not stop it: generating and simulating a design is how a user sees what a
    /// lint means (the raw_will_continue kernel's extra token).
    pub fn new(parse: &Parse) -> Result<Program, Vec<Diagnostic>> {
        let (program, mut found) = Program::build(parse);
        found.extend(hsir_analysis::text_diagnostics(parse));
        let mut errors: Vec<Diagnostic> = found
            .into_iter()
            .filter(|d| d.severity == Severity::Error && blocks_lowering(d))
            .collect();
        if !errors.is_empty() {
            errors.sort_by_key(|d| (d.range.start(), d.range.end(), d.code));
            return Err(errors);
        }
        Ok(program)
    }

    /// As `new`, without refusing IR that has errors.
    pub fn new_unchecked(parse: &Parse) -> Program {
        Program::build(parse).0
    }

    /// Lowers and types every item (on every core), and says what the type checks found, with
    /// file ranges. This is `check` without the dataflow lints, which do not decide whether the
    /// backend can lower an item.
    fn build(parse: &Parse) -> (Program, Vec<Diagnostic>) {
        let text = parse.tree().text();
        let ops = hsir_analysis::items(parse);
        let lowered: Vec<(Item, String, TextSize)> = par_map(&ops, |&op| {
            let range = hsir_analysis::ast_node_range(op);
            (ir::lower(op), text[range.clone()].to_string(), TextSize::from(range.start as u32))
        });
        let mut callees: HashMap<String, Callee> = HashMap::new();
        for (item, _, _) in &lowered {
            if let Some((name, callee)) = hsir_analysis::callee_of(item) {
                callees.entry(name).or_insert(callee);
            }
        }
        let typed = par_map(&lowered, |(item, item_text, offset)| {
            let mut symbols = |name: &str| callees.get(name).cloned();
            let mut found = Vec::new();
            let typed = hsir_analysis::check_types(item, item_text, &mut symbols, &mut found);
            for d in &mut found {
                d.range += *offset;
                for related in &mut d.related {
                    related.range += *offset;
                }
            }
            (typed, found)
        });
        let mut program = Program::default();
        let mut diagnostics = Vec::new();
        for ((item, item_text, offset), (typed, found)) in lowered.into_iter().zip(typed) {
            diagnostics.extend(found);
            let Some(top) = item.ops.first() else { continue };
            let name = top
                .signature
                .as_ref()
                .and_then(|s| s.name.as_ref())
                .map(|(n, _)| n.trim_start_matches('@').trim_matches('"').to_string())
                .or_else(|| top.symbol.as_ref().map(|(n, _)| n.trim_start_matches('@').to_string()))
                .unwrap_or_default();
            if top.name == "handshake.func" {
                // A declaration may name its arguments; what makes it one is having no body.
                let external =
                    top.signature.as_ref().is_some_and(|s| s.external) || top.regions.is_empty();
                let (types, style) = match typed {
                    Some(t) => (t.types, t.style),
                    None => (item.values.iter().map(|v| v.ty.clone()).collect(), Style::Circt),
                };
                program.funcs.push(Func {
                    name,
                    item,
                    text: item_text,
                    offset,
                    types,
                    style,
                    external,
                });
            } else if top.name.starts_with("hw.module") {
                program.modules.push(HwModule { name, item, text: item_text, offset });
            }
        }
        (program, diagnostics)
    }

    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }

    /// The functions with a body that no other function instantiates: the candidates for the
    /// design's top, in file order.
    pub fn top_candidates(&self) -> Vec<&Func> {
        let called: std::collections::HashSet<&str> = self
            .funcs
            .iter()
            .flat_map(|f| f.item.ops.iter())
            .filter(|op| op.short_name() == "instance")
            .filter_map(|op| op.symbol.as_ref().map(|(s, _)| s.trim_start_matches('@')))
            .collect();
        self.funcs.iter().filter(|f| !f.external && !called.contains(f.name.as_str())).collect()
    }

    /// The function to generate when none is named: the last of `top_candidates`, as CIRCT
    /// picks its top.
    pub fn default_top(&self) -> Option<&Func> {
        self.top_candidates().pop()
    }
}

/// `f` over `items` on every core, in order. Items are handed out one at a time, so a few large
/// ones do not leave a core idle. A panic in `f` is resumed on the caller's thread.
pub fn par_map<T: Sync, U: Send>(items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    if threads <= 1 || items.len() < 4 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, U)> = std::thread::scope(|scope| {
        let (f, next) = (&f, &next);
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, f(item)));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, u)| u).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memref_shapes() {
        let ty = |t: &str| Type::Other(t.to_string());
        assert_eq!(memref_shape(&ty("memref<10xi32>")), Some((10, 32)));
        assert_eq!(memref_shape(&ty("memref<4x8xf32>")), Some((32, 32)));
        assert_eq!(memref_shape(&ty("memref<3xindex>")), Some((3, 64)));
        assert_eq!(memref_shape(&ty("tensor<3xi32>")), None);
    }

    #[test]
    fn identifiers_are_verilog() {
        assert_eq!(identifier("a.b"), "a_b");
        assert_eq!(identifier("1x"), "_1x");
        assert_eq!(identifier("wire"), "wire_");
    }
}
