//! Byte offsets to LSP positions and back, in the encoding negotiated with the client.

use hsir_analysis::{TextRange, TextSize};
use line_index::{LineCol, WideEncoding, WideLineCol};

/// How the client counts columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// A line and column as the client counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub character: u32,
}

/// The line starts of one text.
#[derive(Debug, Clone)]
pub struct LineIndex {
    index: line_index::LineIndex,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex { index: line_index::LineIndex::new(text) }
    }

    /// Follows an edit: `range` of the old text became `new_text`, giving `text`.
    pub fn edit(&mut self, _range: TextRange, _new_text: &str, text: &str) {
        self.index = line_index::LineIndex::new(text);
    }

    pub fn pos(&self, offset: TextSize, encoding: Encoding) -> Pos {
        let offset = line_index::TextSize::from(u32::from(offset).min(u32::from(self.index.len())));
        let utf8 = self.index.line_col(offset);
        match encoding {
            Encoding::Utf8 => Pos { line: utf8.line, character: utf8.col },
            Encoding::Utf16 => {
                let wide = self
                    .index
                    .to_wide(WideEncoding::Utf16, utf8)
                    .unwrap_or(WideLineCol { line: utf8.line, col: utf8.col });
                Pos { line: wide.line, character: wide.col }
            }
        }
    }

    pub fn range(&self, range: TextRange, encoding: Encoding) -> (Pos, Pos) {
        (self.pos(range.start(), encoding), self.pos(range.end(), encoding))
    }

    /// The offset of a position. A column past the end of its line means the line's end, as
    /// the protocol asks; a line past the last means the end of the text.
    pub fn offset(&self, pos: Pos, encoding: Encoding) -> Option<TextSize> {
        let len = self.index.len();
        let Some(line) = self.index.line(pos.line) else {
            return Some(TextSize::from(u32::from(len)));
        };
        let utf8 = match encoding {
            Encoding::Utf8 => LineCol { line: pos.line, col: pos.character },
            Encoding::Utf16 => {
                let wide = WideLineCol { line: pos.line, col: pos.character };
                match self.index.to_utf8(WideEncoding::Utf16, wide) {
                    Some(lc) => lc,
                    None => return Some(TextSize::from(u32::from(line.end()))),
                }
            }
        };
        let line_start = u32::from(line.start());
        let line_end = u32::from(line.end());
        let offset = (line_start + utf8.col).min(line_end);
        Some(TextSize::from(offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_the_encoding_and_round_trip() {
        let text = "a\n\u{e9}\u{1d11e}x\nlast";
        let index = LineIndex::new(text);
        let x = TextSize::from(text.find('x').unwrap() as u32);
        // `é` is 2 bytes and 1 UTF-16 unit; the G clef is 4 bytes and 2 UTF-16 units.
        assert_eq!(index.pos(x, Encoding::Utf16), Pos { line: 1, character: 3 });
        assert_eq!(index.pos(x, Encoding::Utf8), Pos { line: 1, character: 6 });
        assert_eq!(index.offset(Pos { line: 1, character: 3 }, Encoding::Utf16), Some(x));
        assert_eq!(index.offset(Pos { line: 1, character: 6 }, Encoding::Utf8), Some(x));
    }

    #[test]
    fn positions_past_a_line_or_the_text_clamp() {
        let text = "ab\ncd";
        let index = LineIndex::new(text);
        // Past the end of line 0: its end, before the newline.
        assert_eq!(index.offset(Pos { line: 0, character: 99 }, Encoding::Utf16), Some(2.into()));
        assert_eq!(index.offset(Pos { line: 7, character: 0 }, Encoding::Utf16), Some(5.into()));
    }
}
