//! Signature help: the operand roles of the op being typed, and which one the cursor is on.
//!
//! The line under the cursor is usually broken while it is typed (`%3 = mux %sel [%a, `), so
//! this works from the lexer's tokens of that line, not from the tree or the lowering: it finds
//! the op name after the result list, counts the operands written before the cursor, and lays
//! out the op's operand roles (`shape`). The same roles name operand positions in hover
//! (`operand_role`), where they are read from the lowered op instead.

use hsir_parser::SyntaxKind;

use crate::db::{Analysis, ItemView};
use crate::ide::FilePosition;
use crate::ir::{Container, OpId};
use crate::ops::{Era, OpKind};
use crate::signatures::Style;

/// Signature help: a label with byte ranges of its parameters, documentation, and the
/// parameter the cursor is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    pub label: String,
    /// Byte ranges into `label`, one per parameter.
    pub parameters: Vec<(u32, u32)>,
    pub documentation: Option<String>,
    pub active_parameter: Option<u32>,
}

/// The signature help at `pos`: `None` when the cursor is not among the operands of an op hsir
/// knows the operands of.
pub fn signature_help(analysis: &Analysis<'_>, pos: FilePosition) -> Option<SignatureHelp> {
    let text = analysis.text(pos.file)?;
    let offset = usize::from(pos.offset);
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let cursor = offset - line_start;
    let tokens = line_tokens(line);
    let statement = Statement::read(line, &tokens)?;
    if cursor <= statement.name_end {
        return None;
    }
    let active = statement.active(cursor);
    let item = analysis.item_at(pos.file, pos.offset);
    let era = match item.as_ref().and_then(|i| i.typed) {
        Some(typed) => typed.era,
        None if statement.dynamatic => Era::Dynamatic2026,
        None => Era::Circt,
    };
    let era =
        if statement.dynamatic && era.style() == Style::Circt { Era::Dynamatic2026 } else { era };
    let callee = statement.callee.as_deref().map(|name| {
        let name = name.trim_start_matches('@').trim_matches('"');
        let args = item
            .as_ref()
            .and_then(|i| analysis.resolve(name, i.file, i.case))
            .map(|def| ports(&def, false))
            .unwrap_or_default();
        (name.to_string(), args)
    });
    let results = item.as_ref().map(|i| ports(i, true)).unwrap_or_default();
    let count = statement.values.max(active.map_or(0, |a| a + 1));
    let input = ShapeInput {
        name: &statement.name,
        count,
        era,
        bracketed: statement.bracketed,
        loads: statement.loads,
        stores: statement.stores,
        callee,
        results,
    };
    let shape = shape(&input)?;
    let active = active.filter(|&a| a < shape.params.len()).map(|a| a as u32);
    Some(SignatureHelp {
        parameters: shape.params.iter().map(|p| p.range).collect(),
        label: shape.label,
        documentation: crate::ide::hover::describe(&statement.name),
        active_parameter: active,
    })
}

/// The role of operand `position` of op `op`, as hover names it (`select`, `data 1`).
pub fn operand_role(item: &ItemView<'_>, op: OpId, position: usize) -> Option<String> {
    let ir = &item.lowered.item;
    let data = ir.ops.get(op as usize)?;
    let use_ = ir.uses.get(*ir.operands(data).get(position)? as usize)?;
    match (&use_.container, OpKind::of(data)) {
        (&Container::Keyword(k), Some(OpKind::PipelineStage))
            if ir.str(k) == "regs" || ir.str(k) == "pass" =>
        {
            let index = ir.operands(data)[..position]
                .iter()
                .filter(|&&u| ir.uses[u as usize].container == use_.container)
                .count();
            let what = if ir.str(k) == "regs" { "register" } else { "pass-through" };
            return Some(format!("{what} {index}"));
        }
        _ if data.name == "hw.output" => return Some(format!("output {position}")),
        _ => {}
    }
    let first_plain = ir.operands(data).first().map(|&u| ir.uses[u as usize].container);
    let entry = |key: &str| ir.bracket_entry(data, key).and_then(|v| v.trim().parse().ok());
    let (loads, stores) = (entry("ld"), entry("st"));
    let callee = data.symbol.map(|name| {
        let name = ir.str(name).trim_start_matches('@').trim_matches('"').to_string();
        (name, Vec::new())
    });
    let input = ShapeInput {
        name: &data.name,
        count: data.operands.len(),
        era: item.typed.map_or(Era::Circt, |t| t.era),
        bracketed: first_plain == Some(Container::Bracket),
        loads,
        stores,
        callee,
        results: Vec::new(),
    };
    let shape = shape(&input)?;
    shape.params.into_iter().nth(position).map(|p| p.role)
}

/// The ports of an item's function, as written: its arguments, or its results.
fn ports(item: &ItemView<'_>, results: bool) -> Vec<String> {
    let Some(signature) = item.lowered.item.ops.first().and_then(|o| o.signature.as_ref()) else {
        return Vec::new();
    };
    let list = if results { &signature.results } else { &signature.args };
    list.iter()
        .map(|p| {
            let text = item.text.get(std::ops::Range::<usize>::from(p.range)).unwrap_or("");
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

// ---- reading the line ----------------------------------------------------------------------

/// A token of the line: kind and byte range.
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: SyntaxKind,
    start: usize,
    end: usize,
}

fn line_tokens(line: &str) -> Vec<Token> {
    let lexed = hsir_parser::lex(line);
    let mut out = Vec::with_capacity(lexed.len());
    for (i, token) in lexed.iter().enumerate() {
        let end = lexed.get(i + 1).map_or(line.len(), |n| n.start as usize);
        if !token.kind.is_trivia() {
            out.push(Token { kind: token.kind, start: token.start as usize, end });
        }
    }
    out
}

/// What the line says about the op being written.
#[derive(Debug)]
struct Statement {
    name: String,
    name_end: usize,
    /// The operand values of the line, with their token ranges, up to the types or attributes.
    operands: Vec<Token>,
    values: usize,
    /// Where the operand part ends (a top-level `:`, `{` or `->`); the end of the line if none.
    operands_end: usize,
    bracketed: bool,
    dynamatic: bool,
    loads: Option<usize>,
    stores: Option<usize>,
    callee: Option<String>,
}

impl Statement {
    fn read(line: &str, tokens: &[Token]) -> Option<Statement> {
        let text = |t: &Token| &line[t.start..t.end];
        // Skip a result list: `%a, %b:2 =`.
        let mut at = 0;
        if tokens.first()?.kind == SyntaxKind::VALUE_ID {
            let eq = tokens.iter().position(|t| t.kind == SyntaxKind::EQ)?;
            let results_only = tokens[..eq].iter().all(|t| {
                matches!(
                    t.kind,
                    SyntaxKind::VALUE_ID | SyntaxKind::COLON | SyntaxKind::INT | SyntaxKind::COMMA
                )
            });
            if !results_only {
                return None;
            }
            at = eq + 1;
        }
        let name_token = tokens.get(at)?;
        if name_token.kind != SyntaxKind::IDENT {
            return None;
        }
        let name = text(name_token).to_string();
        let rest = &tokens[at + 1..];
        let mut depth = 0i32;
        let mut operands = Vec::new();
        let mut operands_end = line.len();
        let mut callee = None;
        let (mut loads, mut stores) = (None, None);
        for (i, token) in rest.iter().enumerate() {
            match token.kind {
                SyntaxKind::L_PAREN | SyntaxKind::L_BRACK | SyntaxKind::L_ANGLE => depth += 1,
                SyntaxKind::R_PAREN | SyntaxKind::R_BRACK | SyntaxKind::R_ANGLE => depth -= 1,
                SyntaxKind::COLON | SyntaxKind::L_BRACE | SyntaxKind::ARROW if depth <= 0 => {
                    operands_end = token.start;
                    break;
                }
                SyntaxKind::VALUE_ID => operands.push(*token),
                SyntaxKind::AT_ID if callee.is_none() => callee = Some(text(token).to_string()),
                SyntaxKind::IDENT if matches!(text(token), "ld" | "st") => {
                    let value = match (rest.get(i + 1), rest.get(i + 2)) {
                        (Some(eq), Some(n))
                            if eq.kind == SyntaxKind::EQ && n.kind == SyntaxKind::INT =>
                        {
                            text(n).parse().ok()
                        }
                        _ => None,
                    };
                    if text(token) == "ld" {
                        loads = value;
                    } else {
                        stores = value;
                    }
                }
                _ => {}
            }
        }
        let dynamatic = tokens.iter().any(|t| {
            t.kind == SyntaxKind::L_ANGLE
                || (t.kind == SyntaxKind::BANG_ID && text(t).starts_with("!handshake"))
                || (t.kind == SyntaxKind::IDENT && matches!(text(t), "channel" | "control"))
        });
        let bracketed = rest.first().is_some_and(|t| t.kind == SyntaxKind::L_BRACK);
        Some(Statement {
            name,
            name_end: name_token.end,
            values: operands.len(),
            operands,
            operands_end,
            bracketed,
            dynamatic,
            loads,
            stores,
            callee,
        })
    }

    /// The operand the cursor is on: the one it touches, else the next one to be written;
    /// `None` past the operands (in the types or attributes).
    fn active(&self, cursor: usize) -> Option<usize> {
        if cursor > self.operands_end {
            return None;
        }
        // An operand that ends at the cursor is still being typed: it is the active one.
        Some(self.operands.iter().take_while(|t| t.end < cursor).count())
    }
}

// ---- operand shapes ----------------------------------------------------------------------

struct ShapeInput<'a> {
    name: &'a str,
    /// Operands written (at least the one being typed).
    count: usize,
    /// The function's era (operand layouts differ between eras).
    era: Era,
    /// The operands start with `[` (Dynamatic's `control_merge [%a, %b]`).
    bracketed: bool,
    loads: Option<usize>,
    stores: Option<usize>,
    /// `instance @f(...)`: the callee's name and its argument ports as written.
    callee: Option<(String, Vec<String>)>,
    /// The enclosing function's result ports, for `end` / `return`.
    results: Vec<String>,
}

struct Param {
    range: (u32, u32),
    role: String,
}

struct Shape {
    label: String,
    params: Vec<Param>,
}

impl Shape {
    fn new(name: &str) -> Shape {
        Shape { label: name.to_string(), params: Vec::new() }
    }

    fn lit(mut self, text: &str) -> Shape {
        self.label.push_str(text);
        self
    }

    fn param(mut self, text: &str, role: &str) -> Shape {
        let start = self.label.len() as u32;
        self.label.push_str(text);
        self.params.push(Param { range: (start, self.label.len() as u32), role: role.to_string() });
        self
    }

    /// `count` parameters separated by `, `, named by `text(i)` and `role(i)`.
    fn list(
        mut self,
        count: usize,
        text: impl Fn(usize) -> String,
        role: impl Fn(usize) -> String,
    ) -> Shape {
        for i in 0..count {
            if i > 0 {
                self = self.lit(", ");
            }
            self = self.param(&text(i), &role(i));
        }
        self
    }
}

fn numbered(prefix: &'static str) -> impl Fn(usize) -> String {
    move |i| format!("%{prefix}{i}")
}

fn role(prefix: &'static str) -> impl Fn(usize) -> String {
    move |i| format!("{prefix} {i}")
}

/// The operand layout of an op, by its name: a label to show and the role of each operand in
/// operand order. Ops whose custom form is a plain operand list are laid out from the op
/// table's layout for the era; the others' brackets and keywords are written here.
fn shape(input: &ShapeInput<'_>) -> Option<Shape> {
    let full = input.name;
    let kind = OpKind::from_name(full)?;
    let def = kind.def();
    let layout = def.layout(input.era);
    let dynamatic = input.era.style() == Style::Dynamatic;
    let n = input.count;
    let head = |s: &str| Shape::new(full).lit(s);
    let shape = match kind {
        OpKind::Mux => head(" ")
            .param(layout.operands[0].name, layout.operands[0].role)
            .lit(" [")
            .list(n.saturating_sub(1).max(2), numbered("data"), role("data"))
            .lit("]"),
        OpKind::Select => head(" ")
            .param("%condition", "condition")
            .lit(" [")
            .param("%true_value", "value if true")
            .lit(", ")
            .param("%false_value", "value if false")
            .lit("]"),
        _ if kind.is_access() => {
            let ports = layout.operands;
            let fixed = ports.iter().filter(|p| !p.many).count() - usize::from(!dynamatic);
            let addresses = n.saturating_sub(fixed + usize::from(!dynamatic)).max(1);
            let address_role = |i: usize| {
                if addresses == 1 {
                    "address".to_string()
                } else {
                    format!("address {i}")
                }
            };
            let address_text = |i: usize| {
                if addresses == 1 {
                    "%address".to_string()
                } else {
                    format!("%address{i}")
                }
            };
            let data = ports.iter().find(|p| p.name.starts_with("%data")).copied()?;
            let shape = head(" [")
                .list(addresses, address_text, address_role)
                .lit("] ")
                .param(data.name, data.role);
            if dynamatic {
                shape
            } else {
                shape.lit(", ").param("%control", "control")
            }
        }
        OpKind::Merge | OpKind::ControlMerge if input.bracketed => {
            head(" [").list(n.max(2), numbered("in"), role("input")).lit("]")
        }
        OpKind::Merge | OpKind::ControlMerge => {
            head(" ").list(n.max(2), numbered("in"), role("input"))
        }
        OpKind::Join | OpKind::Sync | OpKind::Pack | OpKind::Bundle => {
            head(" ").list(n.max(1), numbered("in"), role("input"))
        }
        OpKind::Fork | OpKind::LazyFork => head(" [N] ").param("%input", "input"),
        OpKind::Oehb | OpKind::Tehb | OpKind::Tfifo => head(" [N] ").param("%input", "input"),
        OpKind::Buffer if dynamatic => {
            head(" ").param("%input", "input").lit(", bufferType = TYPE, numSlots = N")
        }
        OpKind::Buffer => head(" [N] seq|fifo ").param("%input", "input"),
        OpKind::Constant => head(" ").param("%control", "control (trigger)").lit(" {value = V}"),
        OpKind::ArithConstant => head(" V"),
        OpKind::Source => head(""),
        OpKind::Unbundle => head(" ")
            .param("%channel", "channel")
            .lit(" [")
            .list(n.saturating_sub(1), numbered("upstream"), role("upstream signal"))
            .lit("]"),
        OpKind::SpecCommit => {
            head(" [").param("%control", "control").lit("] ").param("%data", "data")
        }
        OpKind::Memory | OpKind::ExtMemory => {
            let ext = kind == OpKind::ExtMemory;
            let stores = input.stores.unwrap_or(0);
            let loads = input.loads.unwrap_or(n.saturating_sub(2 * stores + usize::from(ext)));
            let mut shape = head(&format!(" [ld = {loads}, st = {stores}] "));
            if ext {
                shape = shape.lit("(").param("%memref", "memref").lit(") ");
            }
            shape = shape.lit("(");
            let mut first = true;
            for i in 0..stores {
                if !first {
                    shape = shape.lit(", ");
                }
                first = false;
                shape = shape
                    .param(&format!("%store_data{i}"), &format!("store {i} data"))
                    .lit(", ")
                    .param(&format!("%store_address{i}"), &format!("store {i} address"));
            }
            for i in 0..loads {
                if !first {
                    shape = shape.lit(", ");
                }
                first = false;
                shape = shape.param(&format!("%load_address{i}"), &format!("load {i} address"));
            }
            shape.lit(")")
        }
        OpKind::Instance => {
            let (name, args) = input.callee.clone()?;
            let count = if args.is_empty() { n } else { args.len() };
            head(&format!(" @{name}("))
                .list(
                    count,
                    |i| args.get(i).cloned().unwrap_or_else(|| format!("%arg{i}")),
                    |i| format!("argument {i} of `@{name}`"),
                )
                .lit(")")
        }
        OpKind::End | OpKind::Return => {
            let count = input.results.len().max(n).max(1);
            head(" ").list(
                count,
                |i| match input.results.get(i) {
                    Some(port) => format!("%result{i} : {port}"),
                    // Dynamatic 2024's `end` takes the memories' done tokens after the results.
                    None if kind == OpKind::End
                        && input.era == Era::Dynamatic2024
                        && !input.results.is_empty() =>
                    {
                        format!("%memory_done{}", i - input.results.len())
                    }
                    None => format!("%result{i}"),
                },
                |i| match def.operand_role(input.era, i, count) {
                    Some(r) if i >= input.results.len() && !input.results.is_empty() => {
                        format!("{r} {}", i - input.results.len())
                    }
                    _ => format!("result {i}"),
                },
            )
        }
        OpKind::CmpI | OpKind::CmpF => head(" predicate, ")
            .param("%lhs", "left operand")
            .lit(", ")
            .param("%rhs", "right operand"),
        // A plain operand list, from the table.
        _ if !layout.operands.is_empty() && !def.variadic => {
            let mut shape = head(" ");
            for (i, port) in layout.operands.iter().enumerate() {
                if i > 0 {
                    shape = shape.lit(", ");
                }
                shape = shape.param(port.name, port.role);
            }
            shape
        }
        _ => return None,
    };
    Some(shape)
}
