//! The everyday statement shapes, parsed by hand inside the chumsky grammar.
//!
//! Most statements of a dataflow circuit look alike: results, `=`, an op name, operands, a
//! bracket group or two, perhaps a small attribute dictionary, and a `:` type list of plain
//! types (`%6:2 = fork [2] %x : i32`, `%3 = constant %c {value = 1 : i32} : <i32>`,
//! `%0 = "handshake.br"(%a) : (none) -> none`). Through the combinators, every token of such a
//! statement costs a dispatch, a checkpoint and a few closures. `statement` reads these shapes
//! straight from the token slice and builds exactly the nodes the general grammar builds for
//! them, then moves chumsky's cursor past them. On anything else (a region, a keyword group, a
//! missing piece, a token whose layout flags could make the general grammar stop or decide
//! differently) it fails, the enclosing `choice` rewinds what it built, and the general grammar
//! parses the statement. `signature` does the same for the signature of a function-like op in
//! its everyday shape (`@f(%a: i32, %b: none) -> (i32, none) attributes {argNames = [...]}`).
//!
//! It adds no grammar of its own: `ParseOptions::hand_parsed_statements` turns it off, and the
//! corpus and property tests check that the trees and errors are the same either way.

use chumsky::error::EmptyErr;
use chumsky::input::InputRef;
use chumsky::prelude::*;

use super::tokens::pass_over;
use super::{ends_op, is_hard_stop, Ex, In};
use crate::input::{flags, Tok};
use crate::tree::Node;
use crate::SyntaxKind::{self, *};

type Outcome = Result<(), EmptyErr>;

fn give_up() -> Outcome {
    Err(EmptyErr::default())
}

/// A statement of one of the everyday shapes, or a failure that leaves it to the general
/// grammar. With `enabled` false it always fails.
pub(super) fn statement<'a>(enabled: bool) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        if !enabled {
            return give_up();
        }
        read_by_hand(inp, Reader::statements)
    })
}

/// The signature of a function-like op in its everyday shape, `@name(%a: T, ...)`, then
/// `-> T` or `-> (T, ...)`, then `attributes {...}`, each optional; or a failure that leaves it
/// to the general grammar. With `enabled` false it always fails.
pub(super) fn signature<'a>(enabled: bool) -> impl Parser<'a, In<'a>, (), Ex<'a>> + Clone {
    custom(move |inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>| {
        if !enabled {
            return give_up();
        }
        read_by_hand(inp, Reader::signature)
    })
}

/// Runs `read` at chumsky's position, under the innermost open node, then moves chumsky's
/// cursor past what it read. On a failure the enclosing alternative's rewind removes its nodes.
#[inline(always)]
fn read_by_hand<'a>(
    inp: &mut InputRef<'a, '_, In<'a>, Ex<'a>>,
    read: fn(&mut Reader<'a>, u32) -> Outcome,
) -> Outcome {
    let state = inp.state();
    let from = state.tree.pos();
    let toks = state.toks;
    let (nodes, parent) = state.tree.nodes_below_open();
    // The Reader holds the node array itself while it reads: one indirection less a node.
    let mut reader = Reader { toks, nodes: std::mem::take(nodes), pos: from };
    let outcome = read(&mut reader, parent);
    *nodes = reader.nodes;
    let to = reader.pos;
    outcome?;
    state.tree.consumed_to(to);
    // The tokens are in the tree already; move the cursor past them.
    pass_over(inp, to - from);
    Ok(())
}

/// Reads tokens from `pos` and appends their nodes. Each node is opened with its entry at once
/// (every node here covers a token), and its parent is passed down rather than kept on the tree
/// builder's stack; a failure leaves what was appended for the caller to truncate.
struct Reader<'s> {
    toks: &'s [Tok],
    nodes: Vec<Node>,
    /// Next token to be consumed.
    pos: u32,
}

impl Reader<'_> {
    #[inline(always)]
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos as usize).copied()
    }

    #[inline(always)]
    fn peek_kind(&self) -> Option<SyntaxKind> {
        self.peek().map(|tok| tok.kind)
    }

    /// The kind of the token after the next one.
    #[inline(always)]
    fn second_kind(&self) -> Option<SyntaxKind> {
        self.toks.get(self.pos as usize + 1).map(|tok| tok.kind)
    }

    /// Consumes the next token into the innermost open node.
    #[inline(always)]
    fn take(&mut self) {
        self.pos += 1;
    }

    /// Consumes the next token if it is `kind`; fails otherwise.
    #[inline(always)]
    fn expect(&mut self, kind: SyntaxKind) -> Outcome {
        if self.peek_kind() == Some(kind) {
            self.take();
            Ok(())
        } else {
            give_up()
        }
    }

    /// Opens a node of `kind` under `parent` at the next token; returns its entry.
    #[inline(always)]
    fn start(&mut self, kind: SyntaxKind, parent: u32) -> u32 {
        let entry = self.nodes.len() as u32;
        self.nodes.push(Node { first: self.pos, end: 0, subtree_end: 0, parent, kind });
        entry
    }

    /// Closes the node `entry` after the last consumed token.
    #[inline(always)]
    fn finish(&mut self, entry: u32) {
        let subtree_end = self.nodes.len() as u32;
        let node = &mut self.nodes[entry as usize];
        node.end = self.pos;
        node.subtree_end = subtree_end;
    }

    /// The next token in a node of its own under `parent`.
    #[inline(always)]
    fn leaf(&mut self, kind: SyntaxKind, parent: u32) {
        let entry = self.nodes.len() as u32;
        let first = self.pos;
        self.nodes.push(Node { first, end: first + 1, subtree_end: entry + 1, parent, kind });
        self.pos = first + 1;
    }

    /// Statements of the everyday shapes, one after another: at least one, or a failure.
    ///
    /// The caller's statement loop has checked that a statement may start here. Between
    /// statements this checks a little more than that loop would (`ends_run`), and stops at
    /// the first statement it cannot read, leaving it and the rest to the loop.
    fn statements(&mut self, parent: u32) -> Outcome {
        self.op(parent)?;
        while self.peek().is_some_and(|tok| !ends_run(tok)) {
            let (nodes, pos) = (self.nodes.len(), self.pos);
            if self.op(parent).is_err() {
                self.nodes.truncate(nodes);
                self.pos = pos;
                break;
            }
        }
        Ok(())
    }

    /// `[results =] name items*`, where the general grammar would not take the function or
    /// pipeline path.
    #[inline(always)]
    fn op(&mut self, parent: u32) -> Outcome {
        let Some(first) = self.peek() else { return give_up() };
        let with_results = first.kind == VALUE_ID && first.has(flags::DEF_START);
        if !with_results && !matches!(first.kind, IDENT | STRING) {
            return give_up();
        }
        let op = self.start(OP, parent);
        if with_results {
            self.results(op)?;
        }
        match self.peek() {
            Some(name)
                if matches!(name.kind, IDENT | STRING)
                    && !name.has(flags::FUNC_NAME | flags::PIPELINE_NAME) =>
            {
                self.leaf(OP_NAME, op)
            }
            _ => return give_up(),
        }
        while let Some(tok) = self.peek() {
            if ends_op(tok) {
                break;
            }
            match tok.kind {
                COLON => self.type_list(op)?,
                L_BRACE if tok.has(flags::DICT_START) => self.dictionary(op)?,
                _ => self.item(tok, op)?,
            }
        }
        self.finish(op);
        Ok(())
    }

    /// `%a [: N] (, %b [: N])* =`.
    #[inline(always)]
    fn results(&mut self, parent: u32) -> Outcome {
        let list = self.start(RESULT_LIST, parent);
        loop {
            if self.peek_kind() != Some(VALUE_ID) {
                return give_up();
            }
            if self.second_kind() == Some(COLON) {
                let result = self.start(RESULT, list);
                self.take();
                self.take();
                self.expect(INT)?;
                self.finish(result);
            } else {
                self.leaf(RESULT, list);
            }
            match self.peek_kind() {
                Some(COMMA) => self.take(),
                Some(EQ) => {
                    self.take();
                    break;
                }
                _ => return give_up(),
            }
        }
        self.finish(list);
        Ok(())
    }

    /// An item of an op, or of a bracket group within one: an operand, a nested group, or a
    /// token that the general grammar takes as it is. Inlined into the loops over items: most
    /// items are single tokens, and a call would cost more than taking them.
    #[inline(always)]
    fn item(&mut self, tok: Tok, parent: u32) -> Outcome {
        match tok.kind {
            VALUE_ID => self.leaf(OPERAND, parent),
            L_BRACK => self.group(BRACKET_GROUP, R_BRACK, parent)?,
            L_PAREN => self.group(PAREN_GROUP, R_PAREN, parent)?,
            IDENT
                if !matches!(self.second_kind(), Some(L_PAREN | EQ)) && !tok.has(flags::KW_IN) =>
            {
                self.take()
            }
            // `@callee` (`instance @f(%a) : ...`); `@a::@b` is left to the general grammar.
            AT_ID if self.second_kind() != Some(COLON) => self.leaf(SYMBOL_REF, parent),
            // Tokens the general grammar gives structure to, or treats as a boundary. `=` and
            // `in` follow the values an op binds for its region (`scf.for %i = ...`,
            // `scf.forall (%i) in ...`), which the general grammar reads as `REGION_ARG`s.
            IDENT | COLON | ARROW | EQ | L_BRACE | L_ANGLE | CARET_ID | AT_ID | BANG_ID
            | HASH_ID | FILE_METADATA_END => return give_up(),
            _ if tok.kind.is_closer() || is_hard_stop(tok) => return give_up(),
            _ => self.take(),
        }
        Ok(())
    }

    /// `[ items ]` or `( items )`, with nothing inside that could end the group early.
    #[inline(never)]
    fn group(&mut self, kind: SyntaxKind, closer: SyntaxKind, parent: u32) -> Outcome {
        let group = self.start(kind, parent);
        self.take();
        loop {
            let Some(tok) = self.peek() else { return give_up() };
            if tok.kind == closer {
                self.take();
                break;
            }
            if tok.kind.is_closer() || may_stop(tok) {
                return give_up();
            }
            self.item(tok, group)?;
        }
        self.finish(group);
        Ok(())
    }

    /// `: T (, T)*`, where nothing after it continues the list (`->`, `to`).
    #[inline(always)]
    fn type_list(&mut self, parent: u32) -> Outcome {
        let list = self.start(TYPE_LIST, parent);
        self.take();
        self.ty(list)?;
        while self.peek_kind() == Some(COMMA) {
            self.take();
            self.ty(list)?;
        }
        if let Some(tok) = self.peek() {
            if tok.kind == ARROW || (tok.kind == IDENT && tok.has(flags::KW_TO)) {
                return give_up();
            }
        }
        self.finish(list);
        Ok(())
    }

    /// A type without parameters (`i32`, `none`, `control`), Dynamatic's `<T>` and `<>`, or a
    /// function type over those. The first is inlined; the others are `bracketed_ty`.
    #[inline(always)]
    fn ty(&mut self, parent: u32) -> Outcome {
        let Some(tok) = self.peek() else { return give_up() };
        match tok.kind {
            IDENT if !tok.has(flags::OP_START) => {
                self.leaf(TYPE, parent);
                // `T<...>` is a type with parameters.
                if self.peek_kind() == Some(L_ANGLE) {
                    give_up()
                } else {
                    Ok(())
                }
            }
            L_ANGLE | L_PAREN => self.bracketed_ty(tok.kind, parent),
            _ => give_up(),
        }
    }

    /// `ty` that starts with `<` or `(` (`opener`).
    #[inline(never)]
    fn bracketed_ty(&mut self, opener: SyntaxKind, parent: u32) -> Outcome {
        let ty = self.start(TYPE, parent);
        if opener == L_ANGLE {
            let params = self.start(CHANNEL_PARAMS, ty);
            self.take();
            if self.peek_kind() != Some(R_ANGLE) {
                self.ty(params)?;
            }
            self.expect(R_ANGLE)?;
            self.finish(params);
        } else {
            let function = self.start(FUNCTION_TYPE, ty);
            self.parenthesized_types(function)?;
            self.expect(ARROW)?;
            if self.peek_kind() == Some(L_PAREN) {
                self.parenthesized_types(function)?;
            } else {
                self.ty(function)?;
            }
            self.finish(function);
        }
        self.finish(ty);
        Ok(())
    }

    /// `( [T (, T)*] )`, as tokens of the enclosing node `parent`.
    fn parenthesized_types(&mut self, parent: u32) -> Outcome {
        self.expect(L_PAREN)?;
        if self.peek_kind() != Some(R_PAREN) {
            self.ty(parent)?;
            while self.peek_kind() == Some(COMMA) {
                self.take();
                self.ty(parent)?;
            }
        }
        self.expect(R_PAREN)
    }

    /// `@name ( [%a : T (, %b : T)*] ) [-> T | -> ( [T (, T)*] )] [attributes {...}]` in a
    /// `FUNC_SIGNATURE` under `parent`, with plain types (`ty`) and no argument or result
    /// attributes or locations.
    fn signature(&mut self, parent: u32) -> Outcome {
        if self.peek_kind() != Some(AT_ID) || self.second_kind() != Some(L_PAREN) {
            return give_up();
        }
        let signature = self.start(FUNC_SIGNATURE, parent);
        self.take();
        let args = self.start(FUNC_ARG_LIST, signature);
        self.take();
        if self.peek_kind() != Some(R_PAREN) {
            loop {
                if self.peek_kind() != Some(VALUE_ID) || self.second_kind() != Some(COLON) {
                    return give_up();
                }
                let arg = self.start(FUNC_ARG, args);
                self.take();
                self.take();
                self.ty(arg)?;
                self.finish(arg);
                match self.peek_kind() {
                    Some(COMMA) => self.take(),
                    Some(R_PAREN) => break,
                    _ => return give_up(),
                }
            }
        }
        self.take();
        self.finish(args);
        if self.peek_kind() == Some(ARROW) {
            let results = self.start(FUNC_RESULT_LIST, signature);
            self.take();
            if self.peek_kind() == Some(L_PAREN) {
                self.take();
                if self.peek_kind() != Some(R_PAREN) {
                    loop {
                        let result = self.start(FUNC_RESULT, results);
                        self.ty(result)?;
                        self.finish(result);
                        match self.peek_kind() {
                            Some(COMMA) => self.take(),
                            Some(R_PAREN) => break,
                            _ => return give_up(),
                        }
                    }
                }
                self.take();
            } else {
                let result = self.start(FUNC_RESULT, results);
                self.ty(result)?;
                self.finish(result);
            }
            self.finish(results);
        }
        if let Some(tok) = self.peek() {
            if tok.kind == IDENT && tok.has(flags::KW_ATTRIBUTES) {
                if self.second_kind() != Some(L_BRACE) {
                    return give_up();
                }
                let attributes = self.start(FUNC_ATTRIBUTES, signature);
                self.take();
                self.dictionary(attributes)?;
                self.finish(attributes);
            }
        }
        self.finish(signature);
        Ok(())
    }

    /// `{ key [= value], ... }` with values made of plain atoms and an optional `: T`.
    #[inline(never)]
    fn dictionary(&mut self, parent: u32) -> Outcome {
        let dict = self.start(ATTR_DICT, parent);
        self.take();
        loop {
            let Some(tok) = self.peek() else { return give_up() };
            if may_stop(tok) {
                return give_up();
            }
            match tok.kind {
                R_BRACE => {
                    self.take();
                    break;
                }
                COMMA => self.take(),
                IDENT | STRING => {
                    let entry = self.start(ATTR_ENTRY, dict);
                    self.take();
                    if self.peek_kind() == Some(EQ) {
                        self.take();
                        self.attribute(entry)?;
                    }
                    self.finish(entry);
                }
                _ => return give_up(),
            }
        }
        self.finish(dict);
        Ok(())
    }

    /// An attribute value: atoms up to a boundary, then an optional `: T`.
    fn attribute(&mut self, parent: u32) -> Outcome {
        let attr = self.start(ATTR, parent);
        self.atom(attr)?;
        while let Some(tok) = self.peek() {
            let boundary =
                tok.kind.is_closer() || matches!(tok.kind, COMMA | EQ | COLON) || may_stop(tok);
            if boundary {
                break;
            }
            self.atom(attr)?;
        }
        if self.peek_kind() == Some(COLON) {
            self.take();
            self.ty(attr)?;
        }
        self.finish(attr);
        Ok(())
    }

    /// A literal, a bare word that is neither `loc` nor followed by `<...>`, or an array of
    /// attribute values, in the attribute `parent`.
    fn atom(&mut self, parent: u32) -> Outcome {
        let Some(tok) = self.peek() else { return give_up() };
        match tok.kind {
            INT | FLOAT | STRING | MINUS => self.take(),
            L_BRACK => self.array(parent)?,
            IDENT if !tok.has(flags::KW_LOC) => {
                self.take();
                if self.peek_kind() == Some(L_ANGLE) {
                    return give_up();
                }
            }
            _ => return give_up(),
        }
        Ok(())
    }

    /// `[ value (, value)* ]`, values as in `attribute`.
    #[inline(never)]
    fn array(&mut self, parent: u32) -> Outcome {
        let array = self.start(ARRAY_ATTR, parent);
        self.take();
        loop {
            let Some(tok) = self.peek() else { return give_up() };
            match tok.kind {
                R_BRACK => {
                    self.take();
                    break;
                }
                COMMA => self.take(),
                _ if tok.kind.is_closer() || may_stop(tok) => return give_up(),
                _ => self.attribute(array)?,
            }
        }
        self.finish(array);
        Ok(())
    }
}

/// Where a run of statements stops, a superset of where the grammar's statement loops stop or
/// try something else first: a closer, a block label, a hard stop, or a function or module op
/// (which may be parsed ahead, or end an unclosed function).
fn ends_run(tok: Tok) -> bool {
    tok.kind.is_closer()
        || is_hard_stop(tok)
        || tok.has(flags::LABEL_START)
        || (tok.has(flags::OP_START) && tok.has(flags::FUNC_NAME | flags::MODULE_NAME))
}

/// Tokens inside a group that might end it early or start a statement: left to the general
/// grammar's recovery rules.
fn may_stop(tok: Tok) -> bool {
    is_hard_stop(tok) || tok.has(flags::DEF_START | flags::OP_START | flags::LABEL_START)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` with `read` from its first token; returns how many tokens it took, or
    /// `None` if it gave up.
    fn read_all(
        text: &str,
        read: impl Fn(&mut Reader<'_>, u32) -> Outcome,
    ) -> Option<(u32, usize)> {
        let toks = crate::input::prepare(text, 1).toks;
        let mut reader = Reader { toks: &toks, nodes: Vec::new(), pos: 0 };
        read(&mut reader, 0).ok()?;
        (reader.pos as usize == toks.len()).then_some((reader.pos, reader.nodes.len()))
    }

    /// The signatures Dynamatic and the generator write, and statements with arrays in their
    /// dictionaries, take the hand-written path (the corpus tests check that it builds what the
    /// combinators build).
    #[test]
    fn everyday_signatures_and_arrays_are_read_by_hand() {
        let signature = "@f(%a: i32, %b: none) -> (i32, none) attributes {argNames = [\"a\", \"b\"], resNames = [\"out0\", \"end\"]}";
        assert!(read_all(signature, |r, p| r.signature(p)).is_some());
        assert!(read_all("@g() -> i32", |r, p| r.signature(p)).is_some());
        assert!(read_all("@h(%a: <i8>)", |r, p| r.signature(p)).is_some());
        let statement = "%0 = op %a {keys = [1, [2, 3]], name = \"x\"} : i32";
        assert!(read_all(statement, |r, p| r.statements(p)).is_some());
        // Left to the combinators: argument attributes, visibility, type parameters.
        assert!(read_all("@f(%a: i32 {x}) -> i32", |r, p| r.signature(p)).is_none());
        assert!(read_all("private @f(%a: i32)", |r, p| r.signature(p)).is_none());
        assert!(read_all("@f(%a: memref<4xi32>)", |r, p| r.signature(p)).is_none());
    }
}
