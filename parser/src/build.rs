//! Builds the tree from the lexed tokens and the grammar's events.
//!
//! Tokens the grammar never saw (trivia) are attached where they fall: a node starts at its
//! first grammar token, so trivia before it belongs to the parent, and a node ends at its last
//! grammar token, so trivia after it belongs to whatever comes next.

use text_size::{TextRange, TextSize};

use crate::grammar::Event;
use crate::input::Prepared;
use crate::lexer::LexedToken;
use crate::tree::{Entry, SyntaxTree};
use crate::{SyntaxError, SyntaxErrorKind, SyntaxKind};

struct Builder<'a> {
    text_len: u32,
    lexed: &'a [LexedToken],
    prepared: &'a Prepared,
    entries: Vec<Entry>,
    /// Open nodes, innermost last.
    stack: Vec<u32>,
    /// Next lexed token to attach.
    cursor: usize,
}

impl Builder<'_> {
    fn token_end(&self, i: usize) -> u32 {
        self.lexed.get(i + 1).map_or(self.text_len, |t| t.start)
    }

    /// Attaches lexed tokens `cursor..upto` to the innermost open node.
    fn attach_until(&mut self, upto: usize) {
        let parent = *self.stack.last().expect("the root is open while tokens are attached");
        while self.cursor < upto {
            let index = self.entries.len() as u32;
            let token = self.lexed[self.cursor];
            self.entries.push(Entry {
                kind: token.kind,
                start: token.start,
                end: self.token_end(self.cursor),
                parent,
                subtree_end: index + 1,
            });
            self.cursor += 1;
        }
    }

    /// Lexed index of grammar token `pos`, or the end of the lexed tokens.
    fn lexed_index(&self, pos: u32) -> usize {
        self.prepared.lexed_index.get(pos as usize).map_or(self.lexed.len(), |&i| i as usize)
    }

    fn start_node(&mut self, kind: SyntaxKind, pos: u32) {
        let at = self.lexed_index(pos);
        self.attach_until(at);
        let start = self.lexed.get(at).map_or(self.text_len, |t| t.start);
        let parent = *self.stack.last().expect("the root is open");
        self.stack.push(self.entries.len() as u32);
        self.entries.push(Entry { kind, start, end: start, parent, subtree_end: 0 });
    }

    fn finish_node(&mut self, pos: u32) {
        // Attach grammar tokens before `pos`, with the trivia between them, but not the trivia
        // after the last one.
        if pos > 0 {
            let last = self.lexed_index(pos - 1);
            if last >= self.cursor {
                self.attach_until(last + 1);
            }
        }
        let index = self.stack.pop().expect("Finish matches a Start") as usize;
        let end = if self.entries.len() > index + 1 {
            self.entries.last().map_or(self.entries[index].start, |e| e.end)
        } else {
            self.entries[index].start
        };
        let subtree_end = self.entries.len() as u32;
        let entry = &mut self.entries[index];
        entry.end = end;
        entry.subtree_end = subtree_end;
    }

    /// The text range of grammar tokens `start..end`; empty ranges sit at the end of the
    /// previous grammar token, where "expected X" belongs.
    fn range_of(&self, start: u32, end: u32) -> TextRange {
        if end > start {
            let first = self.lexed_index(start);
            let last = self.lexed_index(end - 1);
            let from = self.lexed.get(first).map_or(self.text_len, |t| t.start);
            let to = if last < self.lexed.len() { self.token_end(last) } else { self.text_len };
            TextRange::new(TextSize::from(from), TextSize::from(to))
        } else {
            let at = if start == 0 {
                0
            } else {
                let prev = self.lexed_index(start - 1);
                if prev < self.lexed.len() {
                    self.token_end(prev)
                } else {
                    self.text_len
                }
            };
            TextRange::empty(TextSize::from(at))
        }
    }
}

pub(crate) fn build(
    text: String,
    lexed: &[LexedToken],
    prepared: &Prepared,
    events: &[Event],
    errors: &mut Vec<SyntaxError>,
) -> SyntaxTree {
    let mut builder = Builder {
        text_len: text.len() as u32,
        lexed,
        prepared,
        entries: Vec::with_capacity(lexed.len() + lexed.len() / 3 + 1),
        stack: Vec::with_capacity(64),
        cursor: 0,
    };
    builder.stack.push(0);
    builder.entries.push(Entry {
        kind: SyntaxKind::SOURCE_FILE,
        start: 0,
        end: builder.text_len,
        parent: u32::MAX,
        subtree_end: 0,
    });
    for event in events {
        match *event {
            Event::Start(kind, pos) => builder.start_node(kind, pos),
            Event::Finish(pos) => builder.finish_node(pos),
            Event::Error { start, end, kind, message } => errors.push(SyntaxError {
                range: builder.range_of(start, end),
                kind,
                message: message.to_string(),
            }),
        }
    }
    builder.attach_until(lexed.len());
    let total = builder.entries.len() as u32;
    builder.entries[0].subtree_end = total;
    SyntaxTree::from_parts(text, builder.entries)
}

/// One error for each `ERROR` token of the lexer, and one for the first bracket nested too
/// deeply: these are facts about tokens, reported whatever the grammar made of them.
pub(crate) fn token_errors(text: &str, lexed: &[LexedToken], prepared: &Prepared) -> Vec<SyntaxError> {
    let mut errors = Vec::new();
    for (i, token) in lexed.iter().enumerate() {
        if token.kind == SyntaxKind::ERROR {
            let end = lexed.get(i + 1).map_or(text.len() as u32, |t| t.start);
            let range = TextRange::new(TextSize::from(token.start), TextSize::from(end));
            let message = if text[range].starts_with('"') {
                "unterminated string literal: expected `\"` before the end of the line".to_string()
            } else {
                format!("invalid character sequence {:?}", &text[range])
            };
            errors.push(SyntaxError { range, kind: SyntaxErrorKind::InvalidToken, message });
        }
    }
    if let Some(pos) = prepared.too_deep {
        let i = prepared.lexed_index[pos as usize] as usize;
        let start = lexed[i].start;
        let end = lexed.get(i + 1).map_or(text.len() as u32, |t| t.start);
        errors.push(SyntaxError {
            range: TextRange::new(TextSize::from(start), TextSize::from(end)),
            kind: SyntaxErrorKind::TooDeep,
            message: format!(
                "brackets nested more than {} deep; the parser does not look inside them",
                crate::input::MAX_DEPTH
            ),
        });
    }
    errors
}
