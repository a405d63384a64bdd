//! The lossless syntax tree: one flat, preorder array of nodes and tokens over the source text.
//!
//! Every byte of the input belongs to exactly one token, and the tokens, read in order, are the
//! input. Nodes and tokens are `Copy` views (`SyntaxNode<'t>`, `SyntaxToken<'t>`) that borrow the
//! tree, so walking it allocates nothing and touches no reference counts.
//!
//! Layout: `entries[i]` is a node or a token in preorder. A node's descendants are the entries
//! `i + 1 .. subtree_end`, so the next sibling of `i` is `entries[i].subtree_end`.

use std::fmt;

use text_size::{TextRange, TextSize};

use crate::SyntaxKind;

/// Sixteen bytes an element. An element's end is not stored: it is the start of the entry after
/// its subtree (or the end of the text), because trivia after a node's last token belongs to
/// what follows the node, and an empty node starts where the next token does.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) start: u32,
    /// Index of the parent node; `u32::MAX` for the root.
    pub(crate) parent: u32,
    /// One past the last descendant; `index + 1` for a token.
    pub(crate) subtree_end: u32,
    pub(crate) kind: SyntaxKind,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

const NO_PARENT: u32 = u32::MAX;

/// A whole file's tree. Immutable once built.
#[derive(Clone)]
pub struct SyntaxTree {
    text: String,
    entries: Vec<Entry>,
}

impl SyntaxTree {
    pub(crate) fn from_parts(text: String, entries: Vec<Entry>) -> SyntaxTree {
        debug_assert!(!entries.is_empty());
        SyntaxTree { text, entries }
    }

    /// The source text, which the tree's tokens cover exactly.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn root(&self) -> SyntaxNode<'_> {
        SyntaxNode { tree: self, index: 0 }
    }

    /// Number of nodes and tokens in the tree.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The text rebuilt from the tree's tokens. Equal to `text()` by construction; it exists so
    /// that tests and `hsir syntax --text` check the construction rather than trust it.
    pub fn rebuild_text(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for (index, entry) in self.entries.iter().enumerate() {
            if entry.kind.is_token() {
                let end = self.end_of(index as u32);
                out.push_str(&self.text[entry.start as usize..end as usize]);
            }
        }
        out
    }

    /// End offset of entry `index`: where the entry after its subtree starts.
    fn end_of(&self, index: u32) -> u32 {
        let after = self.entries[index as usize].subtree_end;
        self.entries.get(after as usize).map_or(self.text.len() as u32, |e| e.start)
    }

    fn range_of(&self, index: u32) -> TextRange {
        let start = self.entries[index as usize].start;
        TextRange::new(TextSize::from(start), TextSize::from(self.end_of(index)))
    }

    fn element(&self, index: u32) -> SyntaxElement<'_> {
        if self.entries[index as usize].kind.is_token() {
            SyntaxElement::Token(SyntaxToken { tree: self, index })
        } else {
            SyntaxElement::Node(SyntaxNode { tree: self, index })
        }
    }
}

impl fmt::Debug for SyntaxTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#?}", self.root())
    }
}

/// A node of the tree.
#[derive(Clone, Copy)]
pub struct SyntaxNode<'t> {
    tree: &'t SyntaxTree,
    index: u32,
}

/// A token (leaf) of the tree.
#[derive(Clone, Copy)]
pub struct SyntaxToken<'t> {
    tree: &'t SyntaxTree,
    index: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxElement<'t> {
    Node(SyntaxNode<'t>),
    Token(SyntaxToken<'t>),
}

impl PartialEq for SyntaxNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.index == other.index
    }
}
impl Eq for SyntaxNode<'_> {}

impl PartialEq for SyntaxToken<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.index == other.index
    }
}
impl Eq for SyntaxToken<'_> {}

impl<'t> SyntaxNode<'t> {
    fn entry(&self) -> &'t Entry {
        &self.tree.entries[self.index as usize]
    }

    pub fn tree(&self) -> &'t SyntaxTree {
        self.tree
    }

    pub fn kind(&self) -> SyntaxKind {
        self.entry().kind
    }

    pub fn text_range(&self) -> TextRange {
        self.tree.range_of(self.index)
    }

    pub fn text(&self) -> &'t str {
        &self.tree.text[self.text_range()]
    }

    pub fn parent(&self) -> Option<SyntaxNode<'t>> {
        let parent = self.entry().parent;
        (parent != NO_PARENT).then_some(SyntaxNode { tree: self.tree, index: parent })
    }

    /// This node, then its parent, and so on up to the root.
    pub fn ancestors(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        std::iter::successors(Some(*self), |node| node.parent())
    }

    pub fn children_with_tokens(&self) -> Children<'t> {
        Children { tree: self.tree, next: self.index + 1, end: self.entry().subtree_end }
    }

    pub fn children(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        self.children_with_tokens().filter_map(SyntaxElement::into_node)
    }

    /// Tokens that are direct children of this node.
    pub fn child_tokens(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.children_with_tokens().filter_map(SyntaxElement::into_token)
    }

    /// This node and all nodes below it, in preorder.
    pub fn descendants(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        let tree = self.tree;
        (self.index..self.entry().subtree_end)
            .filter(move |&i| tree.entries[i as usize].kind.is_node())
            .map(move |index| SyntaxNode { tree, index })
    }

    /// This node and everything below it, in preorder.
    pub fn descendants_with_tokens(&self) -> impl Iterator<Item = SyntaxElement<'t>> {
        let tree = self.tree;
        (self.index..self.entry().subtree_end).map(move |i| tree.element(i))
    }

    /// All tokens below this node, trivia included, in text order.
    pub fn tokens(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.descendants_with_tokens().filter_map(SyntaxElement::into_token)
    }

    pub fn first_token(&self) -> Option<SyntaxToken<'t>> {
        self.tokens().next()
    }

    pub fn next_sibling(&self) -> Option<SyntaxElement<'t>> {
        let parent = self.parent()?;
        let next = self.entry().subtree_end;
        (next < parent.entry().subtree_end).then(|| self.tree.element(next))
    }

    /// The token that contains `offset`; at a boundary between two tokens, the one to the right
    /// (or the last token at the end of the text).
    pub fn token_at_offset(&self, offset: TextSize) -> Option<SyntaxToken<'t>> {
        let offset = u32::from(offset);
        let mut node = *self;
        'descend: loop {
            let mut last_token = None;
            for child in node.children_with_tokens() {
                let range = child.text_range();
                let (start, end) = (u32::from(range.start()), u32::from(range.end()));
                if offset < start {
                    break;
                }
                if offset < end || (offset == end && start == end) {
                    match child {
                        SyntaxElement::Node(n) => {
                            node = n;
                            continue 'descend;
                        }
                        SyntaxElement::Token(t) => return Some(t),
                    }
                }
                if let SyntaxElement::Token(t) = child {
                    last_token = Some(t);
                } else if let SyntaxElement::Node(n) = child {
                    last_token = n.tokens().last().or(last_token);
                }
            }
            return last_token.filter(|t| u32::from(t.text_range().end()) == offset);
        }
    }

    /// The smallest node whose range contains `range`.
    pub fn covering_node(&self, range: TextRange) -> SyntaxNode<'t> {
        let mut node = *self;
        loop {
            let inner = node.children().find(|child| child.text_range().contains_range(range));
            match inner {
                Some(child) => node = child,
                None => return node,
            }
        }
    }
}

impl<'t> SyntaxToken<'t> {
    fn entry(&self) -> &'t Entry {
        &self.tree.entries[self.index as usize]
    }

    pub fn kind(&self) -> SyntaxKind {
        self.entry().kind
    }

    pub fn text_range(&self) -> TextRange {
        self.tree.range_of(self.index)
    }

    pub fn text(&self) -> &'t str {
        &self.tree.text[self.text_range()]
    }

    pub fn parent(&self) -> SyntaxNode<'t> {
        SyntaxNode { tree: self.tree, index: self.entry().parent }
    }

    /// The next token in text order, trivia included.
    pub fn next_token(&self) -> Option<SyntaxToken<'t>> {
        let entries = &self.tree.entries;
        let mut i = self.index as usize + 1;
        while i < entries.len() {
            if entries[i].kind.is_token() {
                return Some(SyntaxToken { tree: self.tree, index: i as u32 });
            }
            i += 1;
        }
        None
    }

    /// The previous token in text order, trivia included.
    pub fn prev_token(&self) -> Option<SyntaxToken<'t>> {
        let entries = &self.tree.entries;
        let mut i = self.index as usize;
        while i > 0 {
            i -= 1;
            if entries[i].kind.is_token() {
                return Some(SyntaxToken { tree: self.tree, index: i as u32 });
            }
        }
        None
    }
}

impl<'t> SyntaxElement<'t> {
    pub fn kind(&self) -> SyntaxKind {
        match self {
            SyntaxElement::Node(n) => n.kind(),
            SyntaxElement::Token(t) => t.kind(),
        }
    }

    pub fn text_range(&self) -> TextRange {
        match self {
            SyntaxElement::Node(n) => n.text_range(),
            SyntaxElement::Token(t) => t.text_range(),
        }
    }

    pub fn into_node(self) -> Option<SyntaxNode<'t>> {
        match self {
            SyntaxElement::Node(n) => Some(n),
            SyntaxElement::Token(_) => None,
        }
    }

    pub fn into_token(self) -> Option<SyntaxToken<'t>> {
        match self {
            SyntaxElement::Token(t) => Some(t),
            SyntaxElement::Node(_) => None,
        }
    }
}

/// Iterator over the direct children of a node.
pub struct Children<'t> {
    tree: &'t SyntaxTree,
    next: u32,
    end: u32,
}

impl<'t> Iterator for Children<'t> {
    type Item = SyntaxElement<'t>;

    fn next(&mut self) -> Option<SyntaxElement<'t>> {
        if self.next >= self.end {
            return None;
        }
        let index = self.next;
        self.next = self.tree.entries[index as usize].subtree_end;
        Some(self.tree.element(index))
    }
}

impl fmt::Debug for SyntaxNode<'_> {
    /// `{:?}` prints `KIND@start..end`; `{:#?}` prints the whole subtree, one element a line,
    /// in the format of the parser's snapshot tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "{}@{:?}", self.kind().name(), self.text_range());
        }
        let mut depth = 0usize;
        let mut stack: Vec<u32> = Vec::new();
        for index in self.index..self.entry().subtree_end {
            while stack.last().is_some_and(|&end| index >= end) {
                stack.pop();
                depth -= 1;
            }
            let entry = &self.tree.entries[index as usize];
            let range = self.tree.range_of(index);
            write!(f, "{:indent$}{}@{:?}", "", entry.kind.name(), range, indent = depth * 2)?;
            if entry.kind.is_token() {
                writeln!(f, " {:?}", &self.tree.text[range])?;
            } else {
                writeln!(f)?;
                stack.push(entry.subtree_end);
                depth += 1;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for SyntaxToken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{:?} {:?}", self.kind().name(), self.text_range(), self.text())
    }
}
