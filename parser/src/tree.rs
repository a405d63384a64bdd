//! The lossless syntax tree: the grammar's tokens, the nodes over them, and the text.
//!
//! Every byte of the input belongs to exactly one token, and the tokens, read in order, are the
//! input. Nodes and tokens are `Copy` views (`SyntaxNode<'t>`, `SyntaxToken<'t>`) that borrow the
//! tree, so walking it allocates nothing and touches no reference counts.
//!
//! Layout. The tree keeps the lexer's array of grammar (non-trivia) tokens and one preorder array
//! of nodes; a node covers the grammar tokens `first..end`, and its descendant nodes are the
//! nodes `index + 1 .. subtree_end`. Trivia is not stored: the gap between two grammar tokens is
//! trivia by construction, and it is split into `WHITESPACE` and `COMMENT` tokens when a walk
//! reaches it. That keeps the tree at about a third of the memory an entry per token would take,
//! and the parser never touches trivia at all.
//!
//! Which node a gap belongs to: the innermost node that contains the grammar tokens on both
//! sides of it (the root for the gaps at the start and the end of the text). So trivia before a
//! node's first token, or after its last, belongs to an enclosing node. A node that covers no
//! token sits right after the grammar token before it (at its parent's start, if its parent
//! starts with the next token).

use std::fmt;

use text_size::{TextRange, TextSize};

use crate::input::Tok;
use crate::lexer::trivia_piece;
use crate::SyntaxKind;

/// A node: its kind and the grammar tokens and nodes below it. Twenty bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// First grammar token covered.
    pub(crate) first: u32,
    /// One past the last grammar token covered; `first` for a node that covers none.
    pub(crate) end: u32,
    /// One past the last descendant node.
    pub(crate) subtree_end: u32,
    /// Index of the parent node; `NO_PARENT` for the root.
    pub(crate) parent: u32,
    pub(crate) kind: SyntaxKind,
}

const _: () = assert!(std::mem::size_of::<Node>() == 20);

pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Marks a `SyntaxToken` that is a grammar token rather than a piece of trivia.
const GRAMMAR: u32 = u32::MAX;

/// A whole file's tree. Immutable once built.
#[derive(Clone)]
pub struct SyntaxTree {
    text: String,
    toks: Vec<Tok>,
    nodes: Vec<Node>,
}

impl SyntaxTree {
    pub(crate) fn from_parts(text: String, toks: Vec<Tok>, nodes: Vec<Node>) -> SyntaxTree {
        debug_assert!(!nodes.is_empty() && nodes[0].end as usize == toks.len());
        SyntaxTree { text, toks, nodes }
    }

    /// The source text, which the tree's tokens cover exactly.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The node at a preorder position given by `SyntaxNode::index`, if there is one.
    pub fn node_at(&self, index: u32) -> Option<SyntaxNode<'_>> {
        ((index as usize) < self.node_count()).then_some(SyntaxNode { tree: self, index })
    }

    pub fn root(&self) -> SyntaxNode<'_> {
        SyntaxNode { tree: self, index: 0 }
    }

    /// Number of nodes in the tree.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of grammar (non-trivia) tokens in the tree.
    pub fn grammar_token_count(&self) -> usize {
        self.toks.len()
    }

    /// The kind of grammar token `t` (a position in `SyntaxNode::grammar_token_span`).
    #[inline]
    pub fn grammar_token_kind(&self, t: u32) -> SyntaxKind {
        self.toks[t as usize].kind
    }

    /// The range of grammar token `t` (a position in `SyntaxNode::grammar_token_span`).
    #[inline]
    pub fn grammar_token_range(&self, t: u32) -> TextRange {
        let tok = self.toks[t as usize];
        TextRange::new(TextSize::from(tok.start), TextSize::from(tok.end))
    }

    /// The text rebuilt from the tree's tokens. Equal to `text()` by construction; it exists so
    /// that tests and `hsir syntax --text` check the construction rather than trust it.
    pub fn rebuild_text(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for token in self.root().tokens() {
            out.push_str(token.text());
        }
        out
    }

    /// Start of the gap before grammar token `t` (`t == toks.len()`: the gap at the end).
    fn gap_start(&self, t: u32) -> u32 {
        if t == 0 {
            0
        } else {
            self.toks[t as usize - 1].end
        }
    }

    /// End of the gap before grammar token `t`.
    #[inline]
    fn gap_end(&self, t: u32) -> u32 {
        self.toks.get(t as usize).map_or(self.text.len() as u32, |tok| tok.start)
    }

    #[inline]
    fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    #[inline]
    fn node_range(&self, index: u32) -> TextRange {
        let node = self.node(index);
        let (start, end) = if index == 0 {
            (0, self.text.len() as u32)
        } else if node.first < node.end {
            (self.toks[node.first as usize].start, self.toks[node.end as usize - 1].end)
        } else {
            let at = self.empty_node_offset(index);
            (at, at)
        };
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    /// Where a node that covers no token sits: right after the grammar token before it, unless
    /// an ancestor starts with the next token, in which case at that ancestor's start.
    fn empty_node_offset(&self, index: u32) -> u32 {
        let t = self.node(index).first;
        let mut at = index;
        loop {
            let parent = self.node(at).parent;
            if parent == 0 || parent == NO_PARENT || self.node(parent).first < t {
                return self.gap_start(t);
            }
            if self.node(parent).end > t {
                return self.toks[t as usize].start;
            }
            at = parent;
        }
    }

    /// Whether node `index` owns the gap before grammar token `t`, given that no child of it
    /// contains both sides of the gap.
    fn owns_gap(&self, index: u32, t: u32) -> bool {
        let node = self.node(index);
        index == 0 || (node.first < t && t < node.end)
    }

    /// The innermost node that contains grammar token `t` (`gap == false`), or that owns the gap
    /// before it (`gap == true`).
    fn owner(&self, t: u32, gap: bool) -> u32 {
        let mut node = 0u32;
        'descend: loop {
            let mut child = node + 1;
            let end = self.node(node).subtree_end;
            while child < end {
                let c = self.node(child);
                let inside = if gap { c.first < t && t < c.end } else { c.first <= t && t < c.end };
                if inside {
                    node = child;
                    continue 'descend;
                }
                if c.first > t {
                    break;
                }
                child = c.subtree_end;
            }
            return node;
        }
    }

    /// The innermost node at or below `start` that contains grammar token `t`, which `start`
    /// covers.
    fn owner_below(&self, start: u32, t: u32) -> u32 {
        let mut node = start;
        'descend: loop {
            let mut child = node + 1;
            let end = self.node(node).subtree_end;
            while child < end {
                let c = self.node(child);
                if c.first <= t && t < c.end {
                    node = child;
                    continue 'descend;
                }
                if c.first > t {
                    break;
                }
                child = c.subtree_end;
            }
            return node;
        }
    }

    /// The piece of trivia in the gap before grammar token `t` that contains `offset`.
    fn piece_at(&self, t: u32, offset: u32) -> SyntaxToken<'_> {
        let (mut at, end) = (self.gap_start(t), self.gap_end(t));
        loop {
            let piece_end = trivia_piece(self.text.as_bytes(), at, end).1;
            if offset < piece_end || piece_end >= end {
                return self.trivia_token(self.owner(t, true), t, at);
            }
            at = piece_end;
        }
    }

    fn grammar_token(&self, parent: u32, t: u32) -> SyntaxToken<'_> {
        SyntaxToken { tree: self, parent, tok: t, trivia: GRAMMAR }
    }

    fn trivia_token(&self, parent: u32, t: u32, at: u32) -> SyntaxToken<'_> {
        SyntaxToken { tree: self, parent, tok: t, trivia: at }
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

/// A token (leaf) of the tree: a grammar token, or a piece of trivia.
#[derive(Clone, Copy)]
pub struct SyntaxToken<'t> {
    tree: &'t SyntaxTree,
    /// The node the token belongs to.
    parent: u32,
    /// The grammar token's index; for trivia, the index of the grammar token after its gap.
    tok: u32,
    /// For trivia, where the piece starts; `GRAMMAR` for a grammar token.
    trivia: u32,
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
        std::ptr::eq(self.tree, other.tree) && self.tok == other.tok && self.trivia == other.trivia
    }
}
impl Eq for SyntaxToken<'_> {}

impl<'t> SyntaxNode<'t> {
    #[inline]
    fn node(&self) -> &'t Node {
        self.tree.node(self.index)
    }

    pub fn tree(&self) -> &'t SyntaxTree {
        self.tree
    }

    /// The node's position in its tree's preorder; `SyntaxTree::node_at` gives it back. Stable
    /// for as long as the tree lives, so callers can keep it instead of the node.
    #[inline]
    pub fn index(&self) -> u32 {
        self.index
    }

    #[inline]
    pub fn kind(&self) -> SyntaxKind {
        self.node().kind
    }

    #[inline]
    pub fn text_range(&self) -> TextRange {
        self.tree.node_range(self.index)
    }

    #[inline]
    pub fn text(&self) -> &'t str {
        &self.tree.text[self.text_range()]
    }

    #[inline]
    pub fn parent(&self) -> Option<SyntaxNode<'t>> {
        let parent = self.node().parent;
        (parent != NO_PARENT).then_some(SyntaxNode { tree: self.tree, index: parent })
    }

    /// This node, then its parent, and so on up to the root.
    pub fn ancestors(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        std::iter::successors(Some(*self), |node| node.parent())
    }

    /// Direct children, nodes and tokens (trivia included), in text order.
    pub fn children_with_tokens(&self) -> Children<'t> {
        Children { grammar: self.grammar_children(), phase: Phase::Empty, trivia: 0 }
    }

    /// Direct child nodes, in text order.
    pub fn children(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        let tree = self.tree;
        let end = self.node().subtree_end;
        let first = (self.index + 1 < end).then_some(self.index + 1);
        std::iter::successors(first, move |&i| {
            let next = tree.node(i).subtree_end;
            (next < end).then_some(next)
        })
        .map(move |index| SyntaxNode { tree, index })
    }

    /// Tokens that are direct children of this node.
    pub fn child_tokens(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.children_with_tokens().filter_map(SyntaxElement::into_token)
    }

    /// This node and all nodes below it, in preorder.
    pub fn descendants(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        let tree = self.tree;
        (self.index..self.node().subtree_end).map(move |index| SyntaxNode { tree, index })
    }

    /// This node and all nodes below it, in preorder, as `descendants` gives them, read as
    /// (preorder position, kind, whether nodes lie below it): a walk of the node array alone,
    /// for counting.
    pub fn descendant_kinds(&self) -> impl Iterator<Item = (u32, SyntaxKind, bool)> + 't {
        let start = self.index;
        let nodes = &self.tree.nodes[start as usize..self.node().subtree_end as usize];
        nodes.iter().enumerate().map(move |(i, node)| {
            let index = start + i as u32;
            (index, node.kind, node.subtree_end > index + 1)
        })
    }

    /// This node and everything below it, in preorder.
    pub fn descendants_with_tokens(&self) -> impl Iterator<Item = SyntaxElement<'t>> {
        Preorder::new(*self).map(|(element, _)| element)
    }

    /// All tokens below this node, trivia included, in text order.
    pub fn tokens(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.descendants_with_tokens().filter_map(SyntaxElement::into_token)
    }

    pub fn first_token(&self) -> Option<SyntaxToken<'t>> {
        self.tokens().next()
    }

    /// The last token below this node, trivia included.
    pub fn last_token(&self) -> Option<SyntaxToken<'t>> {
        self.tokens().last()
    }

    /// Direct child nodes and grammar tokens, in text order, without trivia: what
    /// `children_with_tokens` gives with the whitespace and comments left out, without splitting
    /// the gaps between tokens.
    pub fn grammar_children(&self) -> GrammarChildren<'t> {
        let node = self.node();
        GrammarChildren {
            tree: self.tree,
            node: self.index,
            at: node.first,
            end: node.end,
            child: self.index + 1,
            child_end: node.subtree_end,
        }
    }

    /// Grammar (non-trivia) tokens that are direct children of this node, in text order: what
    /// `child_tokens` gives, trivia left out.
    pub fn grammar_tokens(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.grammar_children().filter_map(SyntaxElement::into_token)
    }

    /// The grammar tokens this node covers, as positions in its tree's token array
    /// (`SyntaxTree::grammar_token_kind`, `grammar_token_range`), in text order: its own and its
    /// descendants'. Empty for a node that covers no token.
    #[inline]
    pub fn grammar_token_span(&self) -> std::ops::Range<u32> {
        let node = self.node();
        node.first..node.end
    }

    /// One past the preorder position of the last node below this one: the nodes below it are
    /// those at `index() + 1 .. subtree_end()` (`SyntaxTree::node_at`), in preorder, and the
    /// node at `subtree_end()` (if any) follows the subtree.
    #[inline]
    pub fn subtree_end(&self) -> u32 {
        self.node().subtree_end
    }

    /// The first token below this node: `first_token()` without walking to it. Trivia never
    /// starts a node other than the root, whose first token is the first piece of its text.
    #[inline]
    pub fn first_grammar_token(&self) -> Option<SyntaxToken<'t>> {
        if self.index == 0 {
            return self.first_token();
        }
        let node = self.node();
        (node.first < node.end).then(|| {
            self.tree.grammar_token(self.tree.owner_below(self.index, node.first), node.first)
        })
    }

    /// The last token below this node: `last_token()` without walking to it. Trivia never ends
    /// a node other than the root.
    #[inline]
    pub fn last_grammar_token(&self) -> Option<SyntaxToken<'t>> {
        if self.index == 0 {
            return self.last_token();
        }
        let node = self.node();
        (node.first < node.end).then(|| {
            let t = node.end - 1;
            self.tree.grammar_token(self.tree.owner_below(self.index, t), t)
        })
    }

    pub fn next_sibling(&self) -> Option<SyntaxElement<'t>> {
        let parent = self.parent()?;
        let mut children = parent.children_with_tokens();
        children.find(|c| *c == SyntaxElement::Node(*self))?;
        children.next()
    }

    /// The token that contains `offset`; at a boundary between two tokens, the one to the right
    /// (or the last token at the end of the text). `None` if `offset` is outside this node.
    pub fn token_at_offset(&self, offset: TextSize) -> Option<SyntaxToken<'t>> {
        let range = self.text_range();
        if !range.contains_inclusive(offset) {
            return None;
        }
        let tree = self.tree;
        let offset = u32::from(offset);
        let n = tree.toks.len() as u32;
        // The first grammar token that ends after `offset`.
        let t = tree.toks.partition_point(|tok| tok.end <= offset) as u32;
        let token = if t < n && tree.toks[t as usize].start <= offset {
            tree.grammar_token(tree.owner(t, false), t)
        } else if offset < tree.gap_end(t) {
            tree.piece_at(t, offset)
        } else if tree.gap_start(n) < tree.gap_end(n) {
            // The end of the text, after trivia: its last piece.
            tree.piece_at(n, offset - 1)
        } else if n > 0 {
            tree.grammar_token(tree.owner(n - 1, false), n - 1)
        } else {
            return None;
        };
        range.contains_range(token.text_range()).then_some(token)
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
    #[inline]
    pub fn kind(&self) -> SyntaxKind {
        if self.trivia == GRAMMAR {
            self.tree.toks[self.tok as usize].kind
        } else {
            let end = self.tree.gap_end(self.tok);
            trivia_piece(self.tree.text.as_bytes(), self.trivia, end).0
        }
    }

    #[inline]
    pub fn text_range(&self) -> TextRange {
        let (start, end) = if self.trivia == GRAMMAR {
            let tok = self.tree.toks[self.tok as usize];
            (tok.start, tok.end)
        } else {
            let gap_end = self.tree.gap_end(self.tok);
            (self.trivia, trivia_piece(self.tree.text.as_bytes(), self.trivia, gap_end).1)
        };
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    #[inline]
    pub fn text(&self) -> &'t str {
        &self.tree.text[self.text_range()]
    }

    #[inline]
    pub fn parent(&self) -> SyntaxNode<'t> {
        SyntaxNode { tree: self.tree, index: self.parent }
    }

    /// The next token in text order, trivia included.
    pub fn next_token(&self) -> Option<SyntaxToken<'t>> {
        let tree = self.tree;
        let n = tree.toks.len() as u32;
        if self.trivia != GRAMMAR {
            let end = tree.gap_end(self.tok);
            let piece_end = trivia_piece(tree.text.as_bytes(), self.trivia, end).1;
            if piece_end < end {
                return Some(tree.trivia_token(self.parent, self.tok, piece_end));
            }
            return (self.tok < n)
                .then(|| tree.grammar_token(tree.owner(self.tok, false), self.tok));
        }
        let t = self.tok + 1;
        if tree.gap_start(t) < tree.gap_end(t) {
            Some(tree.trivia_token(tree.owner(t, true), t, tree.gap_start(t)))
        } else {
            (t < n).then(|| tree.grammar_token(tree.owner(t, false), t))
        }
    }

    /// The previous token in text order, trivia included.
    pub fn prev_token(&self) -> Option<SyntaxToken<'t>> {
        let tree = self.tree;
        let start = u32::from(self.text_range().start());
        // The gap before this token, if this is a grammar token; else its own gap.
        let t = self.tok;
        let gap_start = tree.gap_start(t);
        if gap_start < start {
            let mut at = gap_start;
            loop {
                let piece_end = trivia_piece(tree.text.as_bytes(), at, start).1;
                if piece_end >= start {
                    let parent =
                        if self.trivia == GRAMMAR { tree.owner(t, true) } else { self.parent };
                    return Some(tree.trivia_token(parent, t, at));
                }
                at = piece_end;
            }
        }
        (t > 0).then(|| tree.grammar_token(tree.owner(t - 1, false), t - 1))
    }
}

impl<'t> SyntaxElement<'t> {
    #[inline]
    pub fn kind(&self) -> SyntaxKind {
        match self {
            SyntaxElement::Node(n) => n.kind(),
            SyntaxElement::Token(t) => t.kind(),
        }
    }

    #[inline]
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

/// Where `Children` is at a token boundary: first the empty child nodes that sit there, then
/// the gap (if the node owns it), then the token or child node that starts there.
#[derive(Clone, Copy, Debug)]
enum Phase {
    Empty,
    Gap,
    Item,
}

/// Iterator over the direct children of a node, trivia included: the grammar children
/// (`GrammarChildren`), with the trivia of each gap the node owns before the token after it, and
/// the empty child nodes at a token boundary before that gap's trivia.
pub struct Children<'t> {
    /// Where the walk is among the nodes and grammar tokens: the gap before its `at` comes next.
    grammar: GrammarChildren<'t>,
    phase: Phase,
    /// In the `Gap` phase, where the next piece of trivia starts.
    trivia: u32,
}

impl<'t> Iterator for Children<'t> {
    type Item = SyntaxElement<'t>;

    fn next(&mut self) -> Option<SyntaxElement<'t>> {
        let g = &mut self.grammar;
        let tree = g.tree;
        loop {
            match self.phase {
                Phase::Empty => {
                    if g.child < g.child_end {
                        let child = tree.node(g.child);
                        if child.first == g.at && child.end == g.at {
                            return g.next();
                        }
                    }
                    self.phase = Phase::Gap;
                    self.trivia = if tree.owns_gap(g.node, g.at) {
                        tree.gap_start(g.at)
                    } else {
                        tree.gap_end(g.at)
                    };
                }
                Phase::Gap => {
                    let end = tree.gap_end(g.at);
                    if self.trivia < end {
                        let at = self.trivia;
                        self.trivia = trivia_piece(tree.text.as_bytes(), at, end).1;
                        return Some(SyntaxElement::Token(tree.trivia_token(g.node, g.at, at)));
                    }
                    self.phase = Phase::Item;
                }
                Phase::Item => {
                    // The empty children here came first, so this is a token or a node that
                    // starts at it; after the last, the walk stays ended.
                    let next = g.next();
                    if next.is_some() {
                        self.phase = Phase::Empty;
                    }
                    return next;
                }
            }
        }
    }
}

/// Iterator over the direct child nodes and grammar tokens of a node (`grammar_children`).
#[derive(Clone)]
pub struct GrammarChildren<'t> {
    tree: &'t SyntaxTree,
    node: u32,
    /// The next grammar token, and one past the node's last.
    at: u32,
    end: u32,
    /// The next child node, and one past the last descendant of this node.
    child: u32,
    child_end: u32,
}

impl<'t> Iterator for GrammarChildren<'t> {
    type Item = SyntaxElement<'t>;

    fn next(&mut self) -> Option<SyntaxElement<'t>> {
        let tree = self.tree;
        if self.child < self.child_end {
            let child = tree.node(self.child);
            // A child node that starts here, empty or not, comes before the token it starts at.
            if child.first == self.at {
                let index = self.child;
                self.at = child.end;
                self.child = child.subtree_end;
                return Some(SyntaxElement::Node(SyntaxNode { tree, index }));
            }
        }
        if self.at >= self.end {
            return None;
        }
        let t = self.at;
        self.at += 1;
        Some(SyntaxElement::Token(tree.grammar_token(self.node, t)))
    }
}

/// Preorder walk of a subtree, with each element's depth below the start.
struct Preorder<'t> {
    stack: Vec<Children<'t>>,
    start: Option<SyntaxNode<'t>>,
}

impl<'t> Preorder<'t> {
    fn new(node: SyntaxNode<'t>) -> Self {
        Preorder { stack: Vec::new(), start: Some(node) }
    }
}

impl<'t> Iterator for Preorder<'t> {
    type Item = (SyntaxElement<'t>, usize);

    fn next(&mut self) -> Option<(SyntaxElement<'t>, usize)> {
        if let Some(start) = self.start.take() {
            self.stack.push(start.children_with_tokens());
            return Some((SyntaxElement::Node(start), 0));
        }
        loop {
            let depth = self.stack.len();
            let next = self.stack.last_mut()?.next();
            match next {
                Some(SyntaxElement::Node(node)) => {
                    self.stack.push(node.children_with_tokens());
                    return Some((SyntaxElement::Node(node), depth));
                }
                Some(token) => return Some((token, depth)),
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

impl fmt::Debug for SyntaxNode<'_> {
    /// `{:?}` prints `KIND@start..end`; `{:#?}` prints the whole subtree, one element a line,
    /// in the format of the parser's snapshot tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "{}@{:?}", self.kind().name(), self.text_range());
        }
        for (element, depth) in Preorder::new(*self) {
            let range = element.text_range();
            write!(f, "{:indent$}{}@{:?}", "", element.kind().name(), range, indent = depth * 2)?;
            match element {
                SyntaxElement::Token(token) => writeln!(f, " {:?}", token.text())?,
                SyntaxElement::Node(_) => writeln!(f)?,
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
