//! Offsets to positions: byte offsets below this crate, 0-based line and UTF-16 column (as in
//! LSP) at its edges.

use hsir_analysis::{TextRange, TextSize};
use line_index::{LineIndex, WideEncoding};
use serde::Serialize;

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// Converts offsets of one text.
pub struct Positions {
    index: LineIndex,
}

impl Positions {
    pub fn new(text: &str) -> Positions {
        Positions { index: LineIndex::new(text) }
    }

    pub fn position(&self, offset: TextSize) -> Position {
        let offset = line_index::TextSize::from(u32::from(offset));
        let utf8 = self.index.line_col(offset);
        let wide = self
            .index
            .to_wide(WideEncoding::Utf16, utf8)
            .unwrap_or(line_index::WideLineCol { line: utf8.line, col: utf8.col });
        Position { line: wide.line, character: wide.col }
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range { start: self.position(range.start()), end: self.position(range.end()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_code_units() {
        let text = "a\n\u{e9}\u{1d11e}x\n";
        let positions = Positions::new(text);
        // `é` is 2 bytes and 1 UTF-16 unit; the G clef is 4 bytes and 2 UTF-16 units.
        let x = TextSize::from(text.find('x').unwrap() as u32);
        assert_eq!(positions.position(x), Position { line: 1, character: 3 });
    }
}
