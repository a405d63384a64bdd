//! What the backend reads: the `handshake.func`s and `hw.module`s of one file as the analysis
//! lowered, typed and checked them (`hsir_analysis::Database`, the driver `hsir check` runs),
//! each with the errors that stop the backend, and the shapes of their channels and memories
//! decided once for the interpreter, the netlist and the testbench alike.

use std::collections::BTreeMap;

use hsir_analysis::ir::{Item, OpData, ValueId};
use hsir_analysis::ops::{Era, OpKind};
use hsir_analysis::signatures::Style;
use hsir_analysis::types::Type;
use hsir_analysis::{
    Database, Diagnostic, DiagnosticCode, FileId, Parse, Severity, TextSize, ValueTypes,
};

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
    pub types: ValueTypes,
    pub style: Style,
    /// The syntax era the function is written in, as the analysis read it (`Era::of`).
    pub era: Era,
    /// A declaration without a body.
    pub external: bool,
    /// Which `// -----` case of the file it is in.
    pub case: u32,
    /// What `hsir check` reports in it that stops the backend (`blocks_lowering`), with file
    /// ranges.
    pub errors: Vec<Diagnostic>,
    /// The function each `instance` symbol (without `@`) means, as the analysis resolves it
    /// (within the `// -----` case): an index into `Program::funcs`.
    pub callees: BTreeMap<String, usize>,
}

/// One `hw.module` (pipelines live in these).
#[derive(Debug, Clone)]
pub struct HwModule {
    pub name: String,
    pub item: Item,
    pub text: String,
    pub offset: TextSize,
    /// What `hsir check` reports in it that stops the backend, with file ranges.
    pub errors: Vec<Diagnostic>,
}

/// The backend's view of a file.
#[derive(Debug, Clone, Default)]
pub struct Program {
    pub funcs: Vec<Func>,
    pub modules: Vec<HwModule>,
    /// Errors outside every item (a stray token between functions): they may belong to any
    /// function, so they stop every one.
    pub outside: Vec<Diagnostic>,
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

/// `memref<4x8xi32>`: the number of words (dimensions multiplied) and the word width; `None`
/// for other types and for memrefs with a dynamic dimension or an element of unknown width.
pub fn memref_shape(ty: &Type) -> Option<(u64, u32)> {
    let Type::MemRef { dims, elem, .. } = ty else { return None };
    let mut depth: u64 = 1;
    for dim in dims {
        depth = depth.checked_mul((*dim)?)?;
    }
    Some((depth, scalar_width(elem)?))
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
        self.types.get(value)
    }

    /// The channel shape of a value.
    pub fn shape(&self, value: ValueId) -> Option<Shape> {
        shape(self.ty(value)?, self.style)
    }

    /// Names of the arguments: `argNames` when given, else `in<N>`.
    pub fn arg_names(&self) -> Vec<String> {
        let count = self.op().signature.as_ref().map_or(0, |s| s.args.len());
        names(&self.item, self.op(), "argNames", "in", count)
    }

    /// Names of the results: `resNames` when given, else `out<N>`.
    pub fn result_names(&self) -> Vec<String> {
        let count = self.op().signature.as_ref().map_or(0, |s| s.results.len());
        names(&self.item, self.op(), "resNames", "out", count)
    }

    /// The argument that starts one run of the function (one token per invocation): the one
    /// `argNames` calls `start` (Dynamatic), else the last argument when it is a control
    /// channel (CIRCT's `%ctrl: none`, Dynamatic's unnamed start); `None` without either.
    pub fn start_arg(&self) -> Option<usize> {
        let args = self.args();
        let control = |i: usize| self.shape(args[i]).is_some_and(|s| s.control);
        if let Some(i) =
            written_names(&self.item, self.op(), "argNames").iter().position(|n| n == "start")
        {
            return (i < args.len() && control(i)).then_some(i);
        }
        let last = args.len().checked_sub(1)?;
        control(last).then_some(last)
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
        OpKind::of(op).is_some_and(OpKind::is_terminator).then_some(op)
    }

    /// How many operands of the terminator `op` are the function's results: all of them, but
    /// in Dynamatic 2024's `end`, whose operands after the results are the memory interfaces'
    /// done tokens (the function's results are its first operands).
    pub fn terminator_results(&self, op: &OpData) -> usize {
        let count = op.operands.len();
        if self.era == Era::Dynamatic2024 && OpKind::of(op) == Some(OpKind::End) {
            let results = self.op().signature.as_ref().map_or(count, |s| s.results.len());
            results.min(count)
        } else {
            count
        }
    }
}

/// Port names from a `[\"a\", \"b\"]` attribute, made into Verilog identifiers and kept
/// distinct; `prefix<N>` where missing.
fn names(item: &Item, op: &OpData, key: &str, prefix: &str, count: usize) -> Vec<String> {
    let written = written_names(item, op, key);
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
pub fn written_names(item: &Item, op: &OpData, key: &str) -> Vec<String> {
    let names = item.attr_value(op, key).and_then(hsir_analysis::attrs::strings);
    names.unwrap_or_default().into_iter().map(str::to_string).collect()
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
pub fn init_values(item: &Item, op: &OpData) -> Option<Vec<u64>> {
    integer_list(item, op, "initValues")
}

/// An attribute holding a list of integers (`[1, 2]`, `[3 : i32]`); `None` when absent or not
/// all integers.
pub fn integer_list(item: &Item, op: &OpData, key: &str) -> Option<Vec<u64>> {
    let attr = item.attr_value(op, key)?;
    hsir_analysis::attrs::array(attr)?.into_iter().map(parse_integer).collect()
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

/// Whether a diagnostic stops the backend: an error of syntax, types and structure (HS0xxx,
/// HS1xxx) or of CIRCT's pipeline verifier (HS4xxx). Lint findings (buffers, cycles, loops,
/// ctrl-done: HS2xxx, HS3xxx) do not: generating and simulating a design is how a user sees
/// what a lint means (the raw_will_continue kernel's extra token).
pub fn blocks_lowering(d: &Diagnostic) -> bool {
    let code = d.code.code();
    d.severity == Severity::Error
        && (code.starts_with("HS0") || code.starts_with("HS1") || code.starts_with("HS4"))
}

impl Program {
    /// The backend's view of `file`: every `handshake.func` and `hw.module` as the database
    /// lowered, typed and checked it, each with its errors (`blocks_lowering`), and each
    /// `instance` resolved as the analysis resolves it. Items with errors are kept: an error in
    /// one function stops only what depends on it (`Program::check`).
    pub fn from_database(db: &mut Database, file: FileId) -> Program {
        let mut program = Program::default();
        let Some(reported) = db.reported(file) else { return program };
        program.outside = reported.outside.into_iter().filter(blocks_lowering).collect();
        let errors_at = |start: TextSize| -> Vec<Diagnostic> {
            let Ok(i) = reported.items.binary_search_by_key(&start, |(s, _)| *s) else {
                return Vec::new();
            };
            let mut errors: Vec<Diagnostic> =
                reported.items[i].1.iter().filter(|d| blocks_lowering(d)).cloned().collect();
            for d in &mut errors {
                d.range += start;
                for related in &mut d.related {
                    related.range += start;
                }
                for fix in &mut d.fixes {
                    for edit in &mut fix.edits {
                        edit.range += start;
                    }
                }
            }
            errors
        };
        // Where the analysis finds each `instance` symbol of each item: the start of the item
        // that defines it, in this file.
        let mut instances: BTreeMap<TextSize, Vec<(String, Option<TextSize>)>> = BTreeMap::new();
        {
            let analysis = db.analysis();
            for item in analysis.item_refs(file) {
                let Some(view) = analysis.view_of(item) else { continue };
                let mut symbols: Vec<(String, Option<TextSize>)> = Vec::new();
                let ops = view.lowered.item.ops.iter();
                for op in ops.filter(|op| OpKind::of(op) == Some(OpKind::Instance)) {
                    let Some(symbol) = op.symbol else { continue };
                    let symbol =
                        view.lowered.item.str(symbol).trim_start_matches('@').trim_matches('"');
                    if symbols.iter().any(|(s, _)| s == symbol) {
                        continue;
                    }
                    let found = analysis
                        .resolve(symbol, file, item.case)
                        .filter(|callee| callee.file == file)
                        .map(|callee| callee.start);
                    symbols.push((symbol.to_string(), found));
                }
                instances.insert(view.start, symbols);
            }
        }
        let text = db.text(file).unwrap_or_default().to_string();
        let mut callees: Vec<Vec<(String, Option<TextSize>)>> = Vec::new();
        // The lowerings are moved out of the database, not copied.
        for taken in db.take_items(file) {
            let start = taken.item.range.start();
            let item_text = text[taken.item.range].to_string();
            let item = taken.lowered.item;
            let Some(top) = item.ops.first() else { continue };
            let name = top
                .signature
                .as_ref()
                .and_then(|s| s.name.as_ref())
                .map(|(n, _)| n.trim_start_matches('@').trim_matches('"').to_string())
                .or_else(|| top.symbol.map(|n| item.str(n).trim_start_matches('@').to_string()))
                .unwrap_or_default();
            let errors = errors_at(start);
            if OpKind::of(top) == Some(OpKind::Func) {
                // A declaration may name its arguments; what makes it one is having no body.
                let external =
                    top.signature.as_ref().is_some_and(|s| s.external) || top.regions.is_empty();
                let (types, style, era) = match taken.typed {
                    Some(t) => (t.types, t.style, t.era),
                    None => (ValueTypes::written(&item), Style::Circt, Era::Circt),
                };
                callees.push(instances.remove(&start).unwrap_or_default());
                program.funcs.push(Func {
                    name,
                    item,
                    text: item_text,
                    offset: start,
                    types,
                    style,
                    era,
                    external,
                    case: taken.item.case,
                    errors,
                    callees: BTreeMap::new(),
                });
            } else if top.name.starts_with("hw.module") {
                let offset = start;
                program.modules.push(HwModule { name, item, text: item_text, offset, errors });
            }
        }
        let at: BTreeMap<TextSize, usize> =
            program.funcs.iter().enumerate().map(|(i, f)| (f.offset, i)).collect();
        for (i, symbols) in callees.into_iter().enumerate() {
            for (symbol, start) in symbols {
                if let Some(&index) = start.and_then(|s| at.get(&s)) {
                    program.funcs[i].callees.insert(symbol, index);
                }
            }
        }
        program
    }

    /// The program of one parse on its own, as `hsir check` analyses a file: every item, with
    /// its errors.
    pub fn analyse(parse: &Parse) -> Program {
        Program::from_parse(parse.clone())
    }

    /// As `analyse`, taking the parse (a copy of a large file's tree costs milliseconds).
    pub fn from_parse(parse: Parse) -> Program {
        let mut db = Database::new();
        // Every item's lowering is read once more here; letting it go would mean making it
        // again.
        db.set_detail_budget(usize::MAX);
        // Lint findings do not stop the backend (`blocks_lowering`), so they are not computed.
        db.set_lints(false);
        db.set_parse(FileId(0), parse);
        Program::from_database(&mut db, FileId(0))
    }

    /// As `analyse`, refusing a file with any error that stops the backend, in any item.
    pub fn new(parse: &Parse) -> Result<Program, Vec<Diagnostic>> {
        let program = Program::analyse(parse);
        let mut errors: Vec<Diagnostic> = program.outside.clone();
        errors.extend(program.funcs.iter().flat_map(|f| f.errors.iter().cloned()));
        errors.extend(program.modules.iter().flat_map(|m| m.errors.iter().cloned()));
        if !errors.is_empty() {
            errors.sort_by_key(|d| (d.range.start(), d.range.end(), d.code));
            return Err(errors);
        }
        Ok(program)
    }

    /// The dataflow lint errors (HS2xxx, HS3xxx at error severity) of `top` and of every
    /// function it instantiates, directly or through others, with file ranges; and, when there
    /// are any, an HS5010 at `top` that says so first. RTL generation refuses them unless told
    /// otherwise: hardware built from such a design shows the problem rather than the program.
    /// The lints run here, on the reached functions only (`from_parse` leaves them off).
    pub fn lint_errors(&self, top: &str) -> Vec<Diagnostic> {
        let Some(index) = self.funcs.iter().position(|f| f.name == top) else {
            return Vec::new();
        };
        let mut reached = vec![index];
        let mut next = 0;
        while let Some(&caller) = reached.get(next) {
            next += 1;
            for &callee in self.funcs[caller].callees.values() {
                if !reached.contains(&callee) {
                    reached.push(callee);
                }
            }
        }
        let mut errors = Vec::new();
        for &i in &reached {
            let f = &self.funcs[i];
            if f.external {
                continue;
            }
            let typed = hsir_analysis::Typed { types: f.types.clone(), style: f.style, era: f.era };
            let mut found = Vec::new();
            hsir_analysis::lints::lint(&f.item, &f.text, &typed, &mut found);
            // Cycles no buffer breaks in a function before placement are a remark in the
            // editor (HS2023: a normal stage of the flow) but an error for RTL, which would
            // build them as combinational loops.
            errors.extend(found.into_iter().filter_map(|mut d| {
                if d.code == DiagnosticCode::UnbufferedCycles {
                    d.severity = Severity::Error;
                }
                (d.severity == Severity::Error).then(|| d.shifted(f.offset))
            }));
        }
        if errors.is_empty() {
            return errors;
        }
        let f = &self.funcs[index];
        let cycles = errors.iter().any(|d| {
            matches!(d.code, DiagnosticCode::UnbufferedCycles | DiagnosticCode::CombinationalLoop)
        });
        let fix = if cycles {
            "place buffers (`hsir buffers FILE --in-place`, or \"Place buffers\" in the editor)"
        } else if errors.len() == 1 {
            "fix it"
        } else {
            "fix them"
        };
        let mut out = vec![Diagnostic::new(
            DiagnosticCode::BackendLintErrors,
            f.absolute(f.op().name_range),
            format!(
                "`@{top}` has {} dataflow lint error{}, which its RTL would build in; {fix}, or generate it anyway to watch {} in simulation (`hsir rtl --allow-lint-errors`)",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" },
                if errors.len() == 1 { "it" } else { "them" },
            ),
        )];
        out.extend(errors);
        out
    }

    /// Whether the function or `hw.module` `top` can be worked on: it has no errors, nor has
    /// any function it instantiates, directly or through others, nor the file outside its
    /// items. Errors in functions `top` does not reach do not matter. Otherwise the errors, and
    /// for each broken callee an HS5009 at the `instance` that reaches it, naming it. A `top`
    /// that is in the file neither as a function nor as a module is not refused here.
    pub fn check(&self, top: &str) -> Result<(), Vec<Diagnostic>> {
        let mut errors = self.outside.clone();
        match self.funcs.iter().position(|f| f.name == top) {
            Some(index) => {
                errors.extend(self.funcs[index].errors.iter().cloned());
                // Breadth first, in instance order, so that the report reads top down.
                let mut reached = vec![index];
                let mut seen = vec![false; self.funcs.len()];
                seen[index] = true;
                let mut next = 0;
                while let Some(&caller) = reached.get(next) {
                    next += 1;
                    let caller = &self.funcs[caller];
                    let instances = caller.item.ops.iter();
                    for op in instances.filter(|op| OpKind::of(op) == Some(OpKind::Instance)) {
                        let Some(callee) = op.symbol.and_then(|s| {
                            let s = caller.item.str(s);
                            caller.callees.get(s.trim_start_matches('@').trim_matches('"'))
                        }) else {
                            continue;
                        };
                        if std::mem::replace(&mut seen[*callee], true) {
                            continue;
                        }
                        reached.push(*callee);
                        let callee = &self.funcs[*callee];
                        if callee.errors.is_empty() {
                            continue;
                        }
                        let through = if caller.name == top {
                            String::new()
                        } else {
                            format!(" (`@{top}` reaches it through its instances)")
                        };
                        errors.push(Diagnostic::new(
                            DiagnosticCode::BackendBrokenCallee,
                            caller.absolute(op.name_range),
                            format!(
                                "`@{}` instantiates `@{}`, which has errors{through}",
                                caller.name, callee.name
                            ),
                        ));
                        errors.extend(callee.errors.iter().cloned());
                    }
                }
            }
            None => {
                let module = self.modules.iter().find(|m| m.name == top);
                errors.extend(module.into_iter().flat_map(|m| m.errors.iter().cloned()));
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// `check` of each of `tops`, their errors together, each once.
    pub fn check_all<'a>(
        &self,
        tops: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), Vec<Diagnostic>> {
        let mut all: Vec<Diagnostic> = Vec::new();
        for top in tops {
            for d in self.check(top).err().unwrap_or_default() {
                if !all.contains(&d) {
                    all.push(d);
                }
            }
        }
        if all.is_empty() {
            Ok(())
        } else {
            Err(all)
        }
    }

    /// The function an `instance` of `caller` names (`@f`, `f`), as the analysis resolves it.
    pub fn callee(&self, caller: &Func, symbol: &str) -> Option<&Func> {
        let index = caller.callees.get(symbol.trim_start_matches('@').trim_matches('"'))?;
        self.funcs.get(*index)
    }

    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }

    /// The functions with a body that no other function instantiates: the candidates for the
    /// design's top, in file order.
    pub fn top_candidates(&self) -> Vec<&Func> {
        let called: std::collections::BTreeSet<usize> =
            self.funcs.iter().flat_map(|f| f.callees.values().copied()).collect();
        (self.funcs.iter().enumerate())
            .filter(|(i, f)| !f.external && !called.contains(i))
            .map(|(_, f)| f)
            .collect()
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
    let threads = hsir_parser::cores().min(items.len());
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
        let ty = |t: &str| {
            let parse = hsir_parser::parse(format!("%0 = op : {t}\n"));
            let node =
                parse.root().descendants().find(|n| n.kind() == hsir_parser::SyntaxKind::TYPE);
            hsir_analysis::types::lower(node.unwrap(), &mut Vec::new())
        };
        assert_eq!(memref_shape(&ty("memref<10xi32>")), Some((10, 32)));
        assert_eq!(memref_shape(&ty("memref<4x8xf32>")), Some((32, 32)));
        assert_eq!(memref_shape(&ty("memref<3xindex>")), Some((3, 64)));
        assert_eq!(
            memref_shape(&ty("memref<4xi32, affine_map<(d0, d1) -> (d1, d0)>>")),
            Some((4, 32))
        );
        assert_eq!(memref_shape(&ty("memref<?xi32>")), None);
        assert_eq!(memref_shape(&ty("tensor<3xi32>")), None);
    }

    #[test]
    fn identifiers_are_verilog() {
        assert_eq!(identifier("a.b"), "a_b");
        assert_eq!(identifier("1x"), "_1x");
        assert_eq!(identifier("wire"), "wire_");
    }
}
