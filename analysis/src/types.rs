//! One model of Handshake types for every syntax hsir reads.
//!
//! Dynamatic's short form `<i32>`, its long form `!handshake.channel<i32>` and the proposal's
//! `channel<i32>` are one `Type::Channel`; `<>`, `!handshake.control<>` and `control` are one
//! `Type::Control`. Extra signals keep their optional name, their type and their direction,
//! whichever of the spellings was used (`e: i1 (U)`, `e: (U) i1`, `(U) i1`, `i2`). CIRCT's
//! Handshake writes raw types for channels (`i32`, and `none` for control); `as_channel` gives
//! that reading where the caller knows it applies.
//!
//! `lower` builds a `Type` from a `TYPE` node and reports what Dynamatic's type verifier rejects
//! (see `TypeProblem`); it never fails: what it does not understand is `Type::Other`.

use hsir_parser::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// With the data, from producer to consumer (the default).
    Down,
    /// Against the data, with `ready` (`(U)`).
    Up,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ExtraSignal {
    pub name: Option<String>,
    pub ty: Type,
    pub direction: Direction,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    Int {
        width: u32,
        signedness: Signedness,
    },
    /// `f32`, `bf16`, `f8E4M3FN`, ...: the name tells formats of one width apart.
    Float {
        name: String,
        width: u32,
    },
    Index,
    /// `none`.
    None,
    /// A token without data: valid and ready, plus any extra signals.
    Control {
        extras: Vec<ExtraSignal>,
    },
    /// A data bus with valid and ready, plus any extra signals.
    Channel {
        data: Box<Type>,
        extras: Vec<ExtraSignal>,
    },
    /// `memref<4x8xi32>`: the dimensions, outermost first (`None` for a dynamic `?`), the
    /// element type, and the layout and memory space when written (`memref<?xi32, 1>`), by their
    /// text with whitespace removed.
    MemRef {
        dims: Vec<Option<u64>>,
        elem: Box<Type>,
        layout: Option<String>,
    },
    /// Any other type, by its text with whitespace removed.
    Other(String),
}

/// Total width of signals going one way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Widths {
    /// The data bus (0 for control).
    pub data: u32,
    /// Downstream extra signals, summed.
    pub down: u32,
    /// Upstream extra signals, summed.
    pub up: u32,
}

impl Type {
    /// Bits of an integer or float; `None` for anything else.
    pub fn bit_width(&self) -> Option<u32> {
        match self {
            Type::Int { width, .. } | Type::Float { width, .. } => Some(*width),
            _ => None,
        }
    }

    pub fn is_int_or_float(&self) -> bool {
        matches!(self, Type::Int { .. } | Type::Float { .. })
    }

    /// The type as a Handshake value type. Channel and control types are themselves. In CIRCT's
    /// Handshake (`circt_raw` true) a raw integer, float or `index` is a channel of it and `none`
    /// is control; elsewhere raw types are not channels.
    pub fn as_channel(&self, circt_raw: bool) -> Option<Type> {
        match self {
            Type::Channel { .. } | Type::Control { .. } => Some(self.clone()),
            Type::Int { .. } | Type::Float { .. } | Type::Index if circt_raw => {
                Some(Type::Channel { data: Box::new(self.clone()), extras: Vec::new() })
            }
            Type::None if circt_raw => Some(Type::Control { extras: Vec::new() }),
            _ => None,
        }
    }

    /// Signal widths of a channel or control type; `None` for other types, or when a width is
    /// not known (an `index` or non-integer signal).
    pub fn widths(&self) -> Option<Widths> {
        let (data, extras) = match self {
            Type::Control { extras } => (0, extras),
            Type::Channel { data, extras } => (data.bit_width()?, extras),
            _ => return None,
        };
        let mut widths = Widths { data, down: 0, up: 0 };
        for extra in extras {
            let width = extra.ty.bit_width()?;
            match extra.direction {
                Direction::Down => widths.down += width,
                Direction::Up => widths.up += width,
            }
        }
        Some(widths)
    }
}

impl std::fmt::Display for Type {
    /// Dynamatic's short form for channels and control, MLIR's spelling for the rest.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Int { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(f, "{prefix}{width}")
            }
            Type::Float { name, .. } => f.write_str(name),
            Type::Index => f.write_str("index"),
            Type::None => f.write_str("none"),
            Type::Control { extras } => {
                f.write_str("<")?;
                write_extras(f, extras)?;
                f.write_str(">")
            }
            Type::Channel { data, extras } => {
                write!(f, "<{data}")?;
                if !extras.is_empty() {
                    f.write_str(", ")?;
                    write_extras(f, extras)?;
                }
                f.write_str(">")
            }
            Type::MemRef { dims, elem, layout } => {
                f.write_str("memref<")?;
                for dim in dims {
                    match dim {
                        Some(n) => write!(f, "{n}x")?,
                        None => f.write_str("?x")?,
                    }
                }
                write!(f, "{elem}")?;
                if let Some(layout) = layout {
                    write!(f, ", {layout}")?;
                }
                f.write_str(">")
            }
            Type::Other(text) => f.write_str(text),
        }
    }
}

fn write_extras(f: &mut std::fmt::Formatter<'_>, extras: &[ExtraSignal]) -> std::fmt::Result {
    if extras.is_empty() {
        return Ok(());
    }
    f.write_str("[")?;
    for (i, extra) in extras.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if let Some(name) = &extra.name {
            write!(f, "{name}: ")?;
        }
        write!(f, "{}", extra.ty)?;
        if extra.direction == Direction::Up {
            f.write_str(" (U)")?;
        }
    }
    f.write_str("]")
}

/// Something Dynamatic's type verifier rejects, at `range`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeProblem {
    pub range: TextRange,
    pub kind: TypeProblemKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeProblemKind {
    /// A channel's data, or an extra signal, that is not an integer or a float.
    NotIntOrFloat { what: SignalRole, ty: Type },
    /// A channel's data of width 0.
    ZeroWidth { ty: Type },
    /// Two extra signals of one type with the same name; `first` names the earlier one.
    DuplicateName { name: String, first: TextRange },
    /// An extra-signal name with a character other than ASCII letters, digits and `_`.
    BadName { name: String },
    /// `valid` or `ready`, which name a channel's own handshake wires.
    ReservedName { name: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalRole {
    Data,
    Extra,
}

/// The type a `TYPE` node spells, and the problems in it (appended to `problems`).
pub fn lower(node: SyntaxNode<'_>, problems: &mut Vec<TypeProblem>) -> Type {
    let mut lowerer = Lowerer { problems };
    lowerer.ty(node)
}

/// `lower`, with the node's range, read once: a type of one word and no parameters (`i32`) is
/// its token, whose range is the node's.
pub fn lower_ranged(node: SyntaxNode<'_>, problems: &mut Vec<TypeProblem>) -> (Type, TextRange) {
    if let Some((ty, range)) = one_word(node) {
        return (ty, range);
    }
    (lower(node, problems), node.text_range())
}

/// The type of a node of one word and no parameters (`i32`, `none`, `f32`; not `channel` or
/// `control`), and its range: the usual case, read without a walk. No such type has a problem.
fn one_word(node: SyntaxNode<'_>) -> Option<(Type, TextRange)> {
    // A node without nodes below it has its grammar tokens as its children.
    let span = node.grammar_token_span();
    if node.subtree_end() != node.index() + 1 || span.end != span.start + 1 {
        return None;
    }
    let tree = node.tree();
    if tree.grammar_token_kind(span.start) != SyntaxKind::IDENT {
        return None;
    }
    let range = tree.grammar_token_range(span.start);
    let text = &tree.text()[range];
    if matches!(text, "channel" | "control") {
        return None;
    }
    Some((builtin(text).unwrap_or_else(|| Type::Other(text.to_string())), range))
}

struct Lowerer<'p> {
    problems: &'p mut Vec<TypeProblem>,
}

impl Lowerer<'_> {
    fn ty(&mut self, node: SyntaxNode<'_>) -> Type {
        if let Some((ty, _)) = one_word(node) {
            return ty;
        }
        let head = tokens(node).next();
        let params = node.children().find(|n| n.kind() == SyntaxKind::CHANNEL_PARAMS);
        let is_handshake_name = |token: &SyntaxToken<'_>| match token.kind() {
            SyntaxKind::IDENT => matches!(token.text(), "channel" | "control"),
            SyntaxKind::BANG_ID => {
                matches!(token.text(), "!handshake.channel" | "!handshake.control")
            }
            _ => false,
        };
        match (head, params) {
            // `<i32>`, `<>`, `<[e: i1]>`: Dynamatic's short form.
            (None, Some(params)) => self.handshake(params, None),
            (Some(name), params) if is_handshake_name(&name) => {
                let control = name.text().ends_with("control");
                match params {
                    Some(params) => self.handshake(params, Some(control)),
                    None if control => Type::Control { extras: Vec::new() },
                    // `channel` without parameters says nothing about its data.
                    None => Type::Other(squeezed(node.text())),
                }
            }
            (Some(word), None) if word.kind() == SyntaxKind::IDENT && single_token(node) => {
                builtin(word.text()).unwrap_or_else(|| Type::Other(word.text().to_string()))
            }
            (Some(word), None) if word.kind() == SyntaxKind::IDENT && word.text() == "memref" => {
                memref(node).unwrap_or_else(|| Type::Other(squeezed(node.text())))
            }
            _ => Type::Other(squeezed(node.text())),
        }
    }

    /// The parameters of a channel or control type; `control` says which the name gave, if any.
    fn handshake(&mut self, params: SyntaxNode<'_>, control: Option<bool>) -> Type {
        let data_node = params.children().find(|n| n.kind() == SyntaxKind::TYPE);
        let extras = params
            .children()
            .find(|n| n.kind() == SyntaxKind::EXTRA_SIGNAL_LIST)
            .map(|list| self.extras(list))
            .unwrap_or_default();
        match (data_node, control) {
            (Some(data_node), Some(false) | None) => {
                let data = self.ty(data_node);
                self.check_signal(&data, data_node.text_range(), SignalRole::Data);
                if data.bit_width() == Some(0) {
                    self.problem(
                        data_node.text_range(),
                        TypeProblemKind::ZeroWidth { ty: data.clone() },
                    );
                }
                Type::Channel { data: Box::new(data), extras }
            }
            (None, Some(true) | None) => Type::Control { extras },
            // `!handshake.control<i32>` or `channel<>`: not a type Dynamatic defines.
            _ => Type::Other(squeezed(params.parent().map_or("", |p| p.text()))),
        }
    }

    fn extras(&mut self, list: SyntaxNode<'_>) -> Vec<ExtraSignal> {
        let mut extras: Vec<(ExtraSignal, TextRange)> = Vec::new();
        for signal in list.children().filter(|n| n.kind() == SyntaxKind::EXTRA_SIGNAL) {
            let Some(ty_node) = signal.children().find(|n| n.kind() == SyntaxKind::TYPE) else {
                continue;
            };
            let ty = self.ty(ty_node);
            self.check_signal(&ty, ty_node.text_range(), SignalRole::Extra);
            // The signal's own tokens (its type's are inside `ty_node`): `name :` and `( U )`.
            let own: Vec<SyntaxToken<'_>> = tokens(signal).collect();
            let named = own
                .windows(2)
                .find(|w| w[0].kind() == SyntaxKind::IDENT && w[1].kind() == SyntaxKind::COLON)
                .map(|w| w[0]);
            let upstream = own.windows(3).any(|w| {
                w[0].kind() == SyntaxKind::L_PAREN
                    && w[1].text() == "U"
                    && w[2].kind() == SyntaxKind::R_PAREN
            });
            if let Some(name) = named {
                self.check_name(name, &extras);
            }
            let extra = ExtraSignal {
                name: named.map(|t| t.text().to_string()),
                ty,
                direction: if upstream { Direction::Up } else { Direction::Down },
            };
            let range = named.map_or(signal.text_range(), |t| t.text_range());
            extras.push((extra, range));
        }
        extras.into_iter().map(|(extra, _)| extra).collect()
    }

    fn check_signal(&mut self, ty: &Type, range: TextRange, what: SignalRole) {
        if !ty.is_int_or_float() {
            self.problem(range, TypeProblemKind::NotIntOrFloat { what, ty: ty.clone() });
        }
    }

    fn check_name(&mut self, name: SyntaxToken<'_>, earlier: &[(ExtraSignal, TextRange)]) {
        let text = name.text();
        let range = name.text_range();
        if !text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            self.problem(range, TypeProblemKind::BadName { name: text.to_string() });
        }
        if matches!(text, "valid" | "ready") {
            self.problem(range, TypeProblemKind::ReservedName { name: text.to_string() });
        }
        if let Some((_, first)) = earlier.iter().find(|(e, _)| e.name.as_deref() == Some(text)) {
            let kind = TypeProblemKind::DuplicateName { name: text.to_string(), first: *first };
            self.problem(range, kind);
        }
    }

    fn problem(&mut self, range: TextRange, kind: TypeProblemKind) {
        self.problems.push(TypeProblem { range, kind });
    }
}

/// `memref<SHAPE, LAYOUT>` from its `TYPE_PARAMS`, split at its own commas (a layout may hold
/// more). The parser reads `4x8xi32` as tokens that do not follow the dimensions (`4`, then
/// `x8xi32`), so the shape is read from its text: `N` or `?` followed by `x`, then the element.
/// `None` for what is not a ranked memref (`memref<*xf32>`, a shape without an element).
fn memref(node: SyntaxNode<'_>) -> Option<Type> {
    let params = node.children().find(|n| n.kind() == SyntaxKind::TYPE_PARAMS)?;
    let mut parts: Vec<String> = vec![String::new()];
    for element in params.children_with_tokens() {
        match element.kind() {
            SyntaxKind::L_ANGLE | SyntaxKind::R_ANGLE => {}
            SyntaxKind::COMMA => parts.push(String::new()),
            _ => {
                let text = match element.into_token() {
                    Some(token) => token.text(),
                    None => element.into_node().map_or("", |n| n.text()),
                };
                parts.last_mut()?.extend(text.split_whitespace());
            }
        }
    }
    let mut rest = parts.first()?.as_str();
    let mut dims = Vec::new();
    while let Some((dim, after)) = rest.split_once('x') {
        match dim {
            "?" => dims.push(None),
            _ if !dim.is_empty() && dim.bytes().all(|b| b.is_ascii_digit()) => {
                dims.push(Some(dim.parse().ok()?))
            }
            _ => break,
        }
        rest = after;
    }
    if rest.is_empty() || rest.starts_with(['*', '?']) {
        return None;
    }
    let elem = builtin(rest).unwrap_or_else(|| Type::Other(rest.to_string()));
    let layout = (parts.len() > 1).then(|| parts[1..].join(", "));
    Some(Type::MemRef { dims, elem: Box::new(elem), layout })
}

/// The builtin type a single word names: `i32`, `si8`, `ui1`, `f32`, `bf16`, `index`, `none`.
pub fn builtin(word: &str) -> Option<Type> {
    // `i32` and the like first: most types are signless integers.
    if let Some(digits) = word.strip_prefix('i') {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return digits
                .parse()
                .ok()
                .map(|width| Type::Int { width, signedness: Signedness::Signless });
        }
    }
    let int = |digits: &str, signedness| {
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
            .map(|width| Type::Int { width, signedness })
    };
    let float = |width| Type::Float { name: word.to_string(), width };
    let ty = match word {
        "index" => Type::Index,
        "none" => Type::None,
        "bf16" | "f16" => float(16),
        "tf32" => float(19),
        "f32" => float(32),
        "f64" => float(64),
        "f80" => float(80),
        "f128" => float(128),
        _ if word.starts_with("f8E") => float(8),
        _ => {
            if let Some(digits) = word.strip_prefix("si") {
                return int(digits, Signedness::Signed);
            }
            if let Some(digits) = word.strip_prefix("ui") {
                return int(digits, Signedness::Unsigned);
            }
            return int(word.strip_prefix('i')?, Signedness::Signless);
        }
    };
    Some(ty)
}

fn tokens<'t>(node: SyntaxNode<'t>) -> impl Iterator<Item = SyntaxToken<'t>> {
    node.grammar_tokens()
}

fn single_token(node: SyntaxNode<'_>) -> bool {
    node.children().next().is_none() && tokens(node).count() == 1
}

fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use hsir_parser::SyntaxKind;

    use super::*;

    /// Each line: the type as written, then as lowered (Dynamatic's short form), its signal
    /// widths, and what CIRCT's Handshake would read it as.
    fn render(types: &[&str]) -> String {
        let mut out = String::new();
        for text in types {
            let parse = hsir_parser::parse(format!("%0 = op : {text}\n"));
            let node = parse.root().descendants().find(|n| n.kind() == SyntaxKind::TYPE).unwrap();
            let mut problems = Vec::new();
            let ty = lower(node, &mut problems);
            let widths = ty.widths().map_or("-".to_string(), |w| {
                format!("data {} down {} up {}", w.data, w.down, w.up)
            });
            let circt = ty.as_channel(true).map_or("-".to_string(), |t| t.to_string());
            let lowered = ty.to_string();
            out.push_str(&format!("{text:<44} {lowered:<32} {widths:<22} {circt}\n"));
            assert!(problems.is_empty(), "{text}: {problems:?}");
        }
        out
    }

    #[test]
    fn every_spelling_lowers_to_one_model() {
        let actual = render(&[
            "<i32>",
            "!handshake.channel<i32>",
            "channel<i32>",
            "<>",
            "!handshake.control<>",
            "control",
            "<i32, [e: i1 (U)]>",
            "channel<i32, [e: (U) i1]>",
            "!handshake.channel<f32, [spec: i1, (U) i4]>",
            "channel<i32, [i2, i4, (U) i4, (U) i8]>",
            "<[tag: ui8]>",
            "<i8, [U: i1, (U) i2]>",
            "i32",
            "si16",
            "none",
            "index",
            "memref<4xi32>",
            "memref<4 x 8 x index>",
            "memref<?x4xf32, strided<[1, 4]>, 1>",
            "memref<i32>",
            "memref<*xf32>",
        ]);
        expect![[r#"
            <i32>                                        <i32>                            data 32 down 0 up 0    <i32>
            !handshake.channel<i32>                      <i32>                            data 32 down 0 up 0    <i32>
            channel<i32>                                 <i32>                            data 32 down 0 up 0    <i32>
            <>                                           <>                               data 0 down 0 up 0     <>
            !handshake.control<>                         <>                               data 0 down 0 up 0     <>
            control                                      <>                               data 0 down 0 up 0     <>
            <i32, [e: i1 (U)]>                           <i32, [e: i1 (U)]>               data 32 down 0 up 1    <i32, [e: i1 (U)]>
            channel<i32, [e: (U) i1]>                    <i32, [e: i1 (U)]>               data 32 down 0 up 1    <i32, [e: i1 (U)]>
            !handshake.channel<f32, [spec: i1, (U) i4]>  <f32, [spec: i1, i4 (U)]>        data 32 down 1 up 4    <f32, [spec: i1, i4 (U)]>
            channel<i32, [i2, i4, (U) i4, (U) i8]>       <i32, [i2, i4, i4 (U), i8 (U)]>  data 32 down 6 up 12   <i32, [i2, i4, i4 (U), i8 (U)]>
            <[tag: ui8]>                                 <[tag: ui8]>                     data 0 down 8 up 0     <[tag: ui8]>
            <i8, [U: i1, (U) i2]>                        <i8, [U: i1, i2 (U)]>            data 8 down 1 up 2     <i8, [U: i1, i2 (U)]>
            i32                                          i32                              -                      <i32>
            si16                                         si16                             -                      <si16>
            none                                         none                             -                      <>
            index                                        index                            -                      <index>
            memref<4xi32>                                memref<4xi32>                    -                      -
            memref<4 x 8 x index>                        memref<4x8xindex>                -                      -
            memref<?x4xf32, strided<[1, 4]>, 1>          memref<?x4xf32, strided<[1,4]>, 1> -                      -
            memref<i32>                                  memref<i32>                      -                      -
            memref<*xf32>                                memref<*xf32>                    -                      -
        "#]]
        .assert_eq(&actual);
    }

    #[test]
    fn the_three_channel_spellings_are_equal() {
        let lower_text = |text: &str| {
            let parse = hsir_parser::parse(format!("%0 = op : {text}\n"));
            let node = parse.root().descendants().find(|n| n.kind() == SyntaxKind::TYPE).unwrap();
            lower(node, &mut Vec::new())
        };
        let short = lower_text("<i32, [e: i1 (U)]>");
        assert_eq!(short, lower_text("!handshake.channel<i32, [e: i1 (U)]>"));
        assert_eq!(short, lower_text("channel<i32, [e: (U) i1]>"));
        assert_ne!(short, lower_text("<i32, [e: i1]>"));
        assert_eq!(lower_text("i32").as_channel(true), Some(lower_text("<i32>")));
        assert_eq!(lower_text("i32").as_channel(false), None);
        assert_ne!(lower_text("<f16>"), lower_text("<bf16>"));
        let memref = lower_text("memref<?x4xf32, 1>");
        let f32 = Type::Float { name: "f32".to_string(), width: 32 };
        let layout = Some("1".to_string());
        assert_eq!(memref, Type::MemRef { dims: vec![None, Some(4)], elem: Box::new(f32), layout });
    }
}
