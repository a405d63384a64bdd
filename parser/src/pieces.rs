//! Where a large text can be parsed in pieces: the places where one top-level item (a
//! function, an `hw.module`, ...) ends and the next begins, found by looking at a few lines
//! near each place wanted, without lexing the text.
//!
//! The scan only proposes, from the layout every printer of MLIR gives: an item's closing `}`
//! alone on its line, indented as the items are. Parsed on its own, each piece must then come
//! out as whole items with no syntax error, and the text around the pieces (a `module {` line
//! and its `}`) as an empty module with none either; the caller checks that and parses the
//! whole text otherwise. Those checks make a piece's parse the same as the whole text's parse
//! of that stretch: the first piece begins where items do, and a cut anywhere but between two
//! items of that block would leave a brace unclosed on one side of it.

use std::ops::Range;

/// A proposal to parse `text` in pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pieces {
    /// The stretch the pieces tile. Outside it (before and after) is the wrapper: a top-level
    /// `module` line that opens the block of items, and the line that closes it, to be parsed
    /// together without the pieces. The whole text when there is no wrapper.
    pub body: Range<usize>,
    /// The pieces, in order: `body` cut at the beginning of lines that begin items, each piece
    /// at least the minimum size asked for except perhaps the last.
    pub pieces: Vec<Range<usize>>,
}

impl Pieces {
    /// The wrapper's text: the text with the body left out (empty without a wrapper).
    pub fn wrapper(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() - self.body.len());
        out.push_str(&text[..self.body.start]);
        out.push_str(&text[self.body.end..]);
        out
    }

    /// A range of the wrapper's text as a range of the text: a range that ends where the
    /// body was cut out ends there, before the body.
    pub fn wrapper_range(&self, range: Range<usize>) -> Range<usize> {
        let shift = |at: usize, after: bool| if after { at + self.body.len() } else { at };
        shift(range.start, range.start >= self.body.start)
            ..shift(range.end, range.end > self.body.start)
    }
}

/// One line of the text: where it starts and ends (before its `\n`), and its code (without
/// indentation; empty for a blank or comment line).
#[derive(Clone, Copy)]
struct Line<'t> {
    start: usize,
    end: usize,
    indent: usize,
    code: &'t [u8],
}

impl<'t> Line<'t> {
    fn at(bytes: &'t [u8], start: usize) -> Line<'t> {
        let end =
            bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| start + i);
        let line = &bytes[start..end];
        let indent = line.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
        let mut code = &line[indent..];
        while let [rest @ .., b' ' | b'\t' | b'\r'] = code {
            code = rest;
        }
        if code.starts_with(b"//") {
            code = &[];
        }
        Line { start, end, indent, code }
    }

    fn next(&self) -> usize {
        self.end + 1
    }
}

/// The first line with code at or after `from`, if it starts before `limit`.
fn code_line(bytes: &[u8], mut from: usize, limit: usize) -> Option<Line<'_>> {
    while from < limit {
        let line = Line::at(bytes, from);
        if !line.code.is_empty() {
            return Some(line);
        }
        from = line.next();
    }
    None
}

/// Whether a line opens a module whose ops are items: `module {`, `module attributes {...} {`,
/// `builtin.module @name {`, with nothing after its `{`.
fn opens_module(code: &[u8]) -> bool {
    let named = ["module", "builtin.module"].iter().any(|m| {
        code.strip_prefix(m.as_bytes())
            .is_some_and(|rest| matches!(rest.first(), Some(b' ' | b'\t' | b'{' | b'@')))
    });
    named && code.ends_with(b"{") && !code.windows(2).any(|w| w == b"//")
}

/// The first cut at or after the line that starts at `at`: the start of a line with code at
/// `indent` that does not begin with `}`, whose previous line with code is `}` alone at
/// `indent`; both lines before `limit`. `closers` finds a line break, the items' indentation
/// and `}`.
fn next_cut(
    bytes: &[u8],
    at: usize,
    limit: usize,
    indent: usize,
    closers: &memchr::memmem::Finder<'_>,
) -> Option<usize> {
    // The text's first line has no line break before it: it is looked at on its own.
    let mut first = (at == 0).then_some(0);
    // Otherwise the search starts at the line break before the line at `at`.
    let mut search = at.saturating_sub(1);
    loop {
        let start = match first.take() {
            Some(start) => start,
            None if search < limit => search + closers.find(&bytes[search..limit])? + 1,
            None => return None,
        };
        let line = Line::at(bytes, start);
        if line.indent != indent || line.code != b"}" {
            search = line.end;
            continue;
        }
        let next = code_line(bytes, line.next(), limit)?;
        if next.indent == indent && !next.code.starts_with(b"}") {
            return Some(next.start);
        }
        // That line may be an item's `}` itself: search from the line break before it.
        search = next.start - 1;
    }
}

/// Proposes pieces of `text` of at least `min_piece` bytes, or `None` when the text's shape is
/// not the one the scan knows (items, or items in one top-level `module` whose header is its
/// first line of code, ending in `{`, and whose `}` is its last), when it has `// -----`
/// markers, or when it gives fewer than two pieces (one piece is the whole parse).
pub fn pieces(text: &str, min_piece: usize) -> Option<Pieces> {
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"// -----").is_some() {
        return None;
    }
    let first = code_line(bytes, 0, bytes.len())?;
    let mut body = 0..bytes.len();
    if opens_module(first.code) {
        // The module's `}`: the last line with code.
        let mut end = bytes.len();
        let last = loop {
            let start = bytes[..end.saturating_sub(1)]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let line = Line::at(bytes, start);
            if !line.code.is_empty() || start == 0 {
                break line;
            }
            end = start;
        };
        if last.code != b"}" || last.start <= first.start {
            return None;
        }
        body = first.next().min(last.start)..last.start;
    }
    // The items' indentation: the first item's.
    let first_item = code_line(bytes, body.start, body.end)?;
    let indent = first_item.indent;
    // An item's `}` alone on its line: found by searching for a line break, the first item's
    // indentation and `}`, then checked.
    let mut closer = Vec::with_capacity(indent + 2);
    closer.push(b'\n');
    closer.extend_from_slice(&bytes[first_item.start..first_item.start + indent]);
    closer.push(b'}');
    let closers = memchr::memmem::Finder::new(&closer);
    let mut pieces = Vec::new();
    let mut piece_start = body.start;
    let mut from = body.start + min_piece.max(1);
    // A cut: a line with code at the items' indentation, after a line that is an item's `}`.
    while from < body.end {
        // Back to the start of the line `from` is in.
        let at = memchr::memrchr(b'\n', &bytes[..from]).map_or(0, |i| i + 1);
        let cut = next_cut(bytes, at, body.end, indent, &closers);
        let Some(cut) = cut else { break };
        if cut > piece_start {
            pieces.push(piece_start..cut);
            piece_start = cut;
        }
        from = cut + min_piece.max(1);
    }
    pieces.push(piece_start..body.end);
    if pieces.len() < 2 {
        return None;
    }
    Some(Pieces { body, pieces })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, min: usize) -> Option<Vec<&str>> {
        pieces(text, min).map(|p| p.pieces.iter().map(|r| &text[r.clone()]).collect())
    }

    #[test]
    fn items_of_a_module_are_cut_between_functions() {
        let text = "// a file\nmodule {\n  handshake.func @f() {\n    return\n  }\n  // g\n  handshake.func @g() {\n    %0 = foo {\n    }\n    return\n  }\n}\n";
        let p = pieces(text, 1).unwrap();
        assert_eq!(&text[..p.body.start], "// a file\nmodule {\n");
        assert_eq!(&text[p.body.end..], "}\n");
        assert_eq!(
            cut(text, 1).unwrap(),
            [
                "  handshake.func @f() {\n    return\n  }\n  // g\n",
                "  handshake.func @g() {\n    %0 = foo {\n    }\n    return\n  }\n"
            ]
        );
        assert_eq!(p.wrapper(text), "// a file\nmodule {\n}\n");
        assert_eq!(p.wrapper_range(12..19), 12..19);
        assert_eq!(p.wrapper_range(19..20), p.body.end..p.body.end + 1);
        // Pieces of at least a size: here the whole body, which is no split at all.
        assert_eq!(cut(text, 1000), None);
    }

    #[test]
    fn top_level_items_are_cut_without_a_wrapper() {
        let text = "func.func @f() {\n}\nfunc.func @g() {\n  %0 = foo {\n  }\n} // g\nfunc.func @h() {\n}\r\nfunc.func private @i()\n";
        let p = pieces(text, 1).unwrap();
        assert_eq!(p.body, 0..text.len());
        assert_eq!(
            cut(text, 1).unwrap(),
            [
                "func.func @f() {\n}\n",
                // Not after `} // g`: the scan wants the `}` alone; fewer cuts are only slower.
                "func.func @g() {\n  %0 = foo {\n  }\n} // g\nfunc.func @h() {\n}\r\n",
                "func.func private @i()\n"
            ]
        );
        // At least 30 bytes each.
        assert_eq!(cut(text, 30).unwrap().len(), 2);
    }

    #[test]
    fn shapes_the_scan_does_not_know_are_refused() {
        // Markers; code after the module's `}`; a single piece; no code. (A module that lacks
        // its `}` is proposed, and refused by the parse of its last piece.)
        assert_eq!(pieces("func.func @f() {\n}\n// -----\nfunc.func @g() {\n}\n", 1), None);
        assert_eq!(pieces("module {\nfunc.func @f() {\n}\nfunc.func @g() {\n}\n}\nx\n", 1), None);
        assert_eq!(pieces("func.func @f() {\n  return\n}\n", 1), None);
        assert_eq!(pieces("// nothing\n\n", 1), None);
        assert_eq!(pieces("", 1), None);
    }

    /// The cut search as a plain scan of every line: what `next_cut`'s search for `}` lines
    /// must agree with when the items are indented alike.
    fn next_cut_by_lines(
        bytes: &[u8],
        mut at: usize,
        limit: usize,
        indent: usize,
    ) -> Option<usize> {
        let mut closed = false;
        loop {
            let line = code_line(bytes, at, limit)?;
            if closed && line.indent == indent && !line.code.starts_with(b"}") {
                return Some(line.start);
            }
            closed = line.indent == indent && line.code == b"}";
            at = line.next();
        }
    }

    proptest::proptest! {
        #[test]
        fn the_search_for_closing_lines_finds_what_a_line_scan_finds(
            lines in proptest::collection::vec(0usize..10, 0..40),
            from in 0usize..400,
        ) {
            const LINES: [&str; 10] = [
                "  }", "  handshake.func @f() {", "    %0 = x", "", "  // c", "}", "  })",
                "  }  ", "    }", "  } // x",
            ];
            let text: String = lines.iter().map(|&l| format!("{}\n", LINES[l])).collect();
            let bytes = text.as_bytes();
            let from = from.min(bytes.len());
            let at = bytes[..from].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let closers = memchr::memmem::Finder::new(b"\n  }");
            proptest::prop_assert_eq!(
                next_cut(bytes, at, bytes.len(), 2, &closers),
                next_cut_by_lines(bytes, at, bytes.len(), 2)
            );
        }
    }
}
