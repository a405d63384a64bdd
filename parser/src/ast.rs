//! Typed views over the syntax tree: `Op`, `Region`, `Block`, `FuncSignature`, ...
//!
//! Each view wraps a `SyntaxNode` of one kind and answers structural questions ("what are this
//! op's results?") without interpreting them; meaning is the analysis's job.

use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// A view over a node of one known kind.
pub trait AstNode<'t>: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode<'t>) -> Option<Self>;
    fn syntax(&self) -> SyntaxNode<'t>;
}

macro_rules! ast_node {
    ($name:ident, $kind:ident) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name<'t>(SyntaxNode<'t>);

        impl<'t> AstNode<'t> for $name<'t> {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }
            fn cast(node: SyntaxNode<'t>) -> Option<Self> {
                (node.kind() == $kind).then_some($name(node))
            }
            fn syntax(&self) -> SyntaxNode<'t> {
                self.0
            }
        }
    };
}

ast_node!(SourceFile, SOURCE_FILE);
ast_node!(Op, OP);
ast_node!(OpResult, RESULT);
ast_node!(Operand, OPERAND);
ast_node!(RegionArg, REGION_ARG);
ast_node!(Region, REGION);
ast_node!(Block, BLOCK);
ast_node!(BlockLabel, BLOCK_LABEL);
ast_node!(BlockArg, BLOCK_ARG);
ast_node!(FuncSignature, FUNC_SIGNATURE);
ast_node!(FuncArg, FUNC_ARG);
ast_node!(FuncResult, FUNC_RESULT);
ast_node!(Type, TYPE);
ast_node!(TypeList, TYPE_LIST);
ast_node!(AttrDict, ATTR_DICT);
ast_node!(AttrEntry, ATTR_ENTRY);
ast_node!(Attr, ATTR);
ast_node!(AliasDef, ALIAS_DEF);
ast_node!(PipelineInput, PIPELINE_INPUT);
ast_node!(PipelineOutput, PIPELINE_OUTPUT);
ast_node!(KeywordGroup, KEYWORD_GROUP);

fn child<'t, N: AstNode<'t>>(node: SyntaxNode<'t>) -> Option<N> {
    node.children().find_map(N::cast)
}

fn children<'t, N: AstNode<'t>>(node: SyntaxNode<'t>) -> impl Iterator<Item = N> + use<'t, N> {
    node.children().filter_map(N::cast)
}

fn token(node: SyntaxNode<'_>, kind: SyntaxKind) -> Option<SyntaxToken<'_>> {
    node.grammar_tokens().find(|t| t.kind() == kind)
}

/// Nodes of kind `N` below `node`, without descending into regions (so an op's operands are
/// its own, not those of ops nested in its regions).
fn below_outside_regions<'t, N: AstNode<'t>>(node: SyntaxNode<'t>) -> Vec<N> {
    let mut found = Vec::new();
    // The nodes below `node` in preorder, skipping the subtrees of what is found and of regions.
    let tree = node.tree();
    let mut at = node.index() + 1;
    let end = node.subtree_end();
    while at < end {
        let Some(n) = tree.node_at(at) else { break };
        if let Some(it) = N::cast(n) {
            found.push(it);
            at = n.subtree_end();
        } else if n.kind() == REGION {
            at = n.subtree_end();
        } else {
            at += 1;
        }
    }
    found
}

impl<'t> SourceFile<'t> {
    /// Top-level operations (a `module` is one of them).
    pub fn ops(&self) -> impl Iterator<Item = Op<'t>> {
        children(self.0)
    }

    pub fn aliases(&self) -> impl Iterator<Item = AliasDef<'t>> {
        children(self.0)
    }

    /// Offsets of the `// -----` markers that split the file into independent cases.
    pub fn split_markers(&self) -> impl Iterator<Item = SyntaxToken<'t>> {
        self.0.child_tokens().filter(|t| t.kind() == SPLIT_MARKER)
    }
}

impl<'t> Op<'t> {
    /// The op name as written: `handshake.fork`, `fork`, or the string of the generic form
    /// (quotes stripped).
    pub fn name(&self) -> Option<&'t str> {
        let name = self.0.children().find(|n| n.kind() == OP_NAME)?;
        let text = name.text();
        Some(text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text))
    }

    pub fn name_node(&self) -> Option<SyntaxNode<'t>> {
        self.0.children().find(|n| n.kind() == OP_NAME)
    }

    /// Whether the op is written in MLIR's generic form (`"dialect.op"(...)`).
    pub fn is_generic(&self) -> bool {
        self.name_node().and_then(|n| n.first_grammar_token()).is_some_and(|t| t.kind() == STRING)
    }

    pub fn results(&self) -> impl Iterator<Item = OpResult<'t>> {
        self.0.children().filter(|n| n.kind() == RESULT_LIST).flat_map(children)
    }

    /// Operands in textual order, including those inside bracket groups (`mux %s [%a, %b]`)
    /// and keyword groups, but not those of nested ops.
    pub fn operands(&self) -> Vec<Operand<'t>> {
        below_outside_regions(self.0)
    }

    /// Values the op binds for its first region among its own parts (`scf.for %i = ...`,
    /// `iter_args(%acc = %init)`), in textual order, which is the order of the region's
    /// arguments.
    pub fn region_args(&self) -> Vec<RegionArg<'t>> {
        below_outside_regions(self.0)
    }

    pub fn regions(&self) -> Vec<Region<'t>> {
        below_outside_regions(self.0)
    }

    /// The attribute dictionary written directly on the op (`{...}` or `attributes {...}`).
    pub fn attr_dicts(&self) -> Vec<AttrDict<'t>> {
        below_outside_regions::<AttrDict<'t>>(self.0)
            .into_iter()
            .filter(|d| {
                d.syntax().parent().is_some_and(|p| p.kind() == OP || p.kind() == FUNC_ATTRIBUTES)
            })
            .collect()
    }

    /// Inline `key = value` entries (`numSlots = 1`) and entries of the op's dictionaries.
    pub fn attributes(&self) -> Vec<AttrEntry<'t>> {
        let mut out: Vec<AttrEntry<'t>> = children(self.0).collect();
        for dict in self.attr_dicts() {
            out.extend(dict.entries());
        }
        out
    }

    /// The `: T, U` type lists written on the op, outside nested groups.
    pub fn type_lists(&self) -> impl Iterator<Item = TypeList<'t>> {
        children(self.0)
    }

    pub fn signature(&self) -> Option<FuncSignature<'t>> {
        child(self.0)
    }

    pub fn keyword_groups(&self) -> impl Iterator<Item = KeywordGroup<'t>> {
        children(self.0)
    }

    pub fn pipeline_inputs(&self) -> Vec<PipelineInput<'t>> {
        self.0
            .children()
            .filter(|n| n.kind() == PIPELINE_INPUT_LIST)
            .flat_map(|n| children(n).collect::<Vec<_>>())
            .collect()
    }

    pub fn pipeline_outputs(&self) -> Vec<PipelineOutput<'t>> {
        self.0
            .children()
            .filter(|n| n.kind() == PIPELINE_OUTPUT_LIST)
            .flat_map(|n| children(n).collect::<Vec<_>>())
            .collect()
    }
}

impl<'t> OpResult<'t> {
    /// `%name` (without a `:N` suffix).
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, VALUE_ID)
    }

    /// The `N` of `%name:N`; 1 when absent.
    pub fn count(&self) -> u32 {
        token(self.0, INT).and_then(|t| t.text().parse().ok()).unwrap_or(1)
    }
}

impl<'t> Operand<'t> {
    pub fn value(&self) -> Option<SyntaxToken<'t>> {
        // The grammar makes an operand of its value token alone: then that token is the answer,
        // found without walking the children (lowering asks this of every operand).
        let node = self.0;
        if node.subtree_end() == node.index() + 1 {
            if let Some(first) = node.first_grammar_token().filter(|t| t.kind() == VALUE_ID) {
                return Some(first);
            }
        }
        token(node, VALUE_ID)
    }
}

impl<'t> RegionArg<'t> {
    /// The name the op binds: `%i`.
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, VALUE_ID)
    }
}

impl<'t> Region<'t> {
    pub fn blocks(&self) -> impl Iterator<Item = Block<'t>> {
        children(self.0)
    }
}

impl<'t> Block<'t> {
    pub fn label(&self) -> Option<BlockLabel<'t>> {
        child(self.0)
    }

    pub fn ops(&self) -> impl Iterator<Item = Op<'t>> {
        children(self.0)
    }
}

impl<'t> BlockLabel<'t> {
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, CARET_ID)
    }

    pub fn args(&self) -> Vec<BlockArg<'t>> {
        self.0
            .children()
            .filter(|n| n.kind() == BLOCK_ARG_LIST)
            .flat_map(|n| children(n).collect::<Vec<_>>())
            .collect()
    }
}

impl<'t> BlockArg<'t> {
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, VALUE_ID)
    }

    pub fn ty(&self) -> Option<Type<'t>> {
        child(self.0)
    }
}

impl<'t> FuncSignature<'t> {
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, AT_ID)
    }

    pub fn args(&self) -> Vec<FuncArg<'t>> {
        self.0
            .children()
            .filter(|n| n.kind() == FUNC_ARG_LIST)
            .flat_map(|n| children(n).collect::<Vec<_>>())
            .collect()
    }

    pub fn results(&self) -> Vec<FuncResult<'t>> {
        self.0
            .children()
            .filter(|n| n.kind() == FUNC_RESULT_LIST)
            .flat_map(|n| children(n).collect::<Vec<_>>())
            .collect()
    }

    pub fn attributes(&self) -> Option<AttrDict<'t>> {
        let attrs = self.0.children().find(|n| n.kind() == FUNC_ATTRIBUTES)?;
        child(attrs)
    }
}

impl<'t> FuncArg<'t> {
    /// `%arg` (or the bare name of an `hw.module` output port).
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        let mut tokens = self.0.grammar_tokens();
        let first = tokens.next()?;
        let second = tokens.next();
        match (first.kind(), second.map(|t| t.kind())) {
            (VALUE_ID, _) => Some(first),
            (IDENT, Some(COLON)) => Some(first),
            (IDENT, Some(VALUE_ID | IDENT)) => second,
            _ => None,
        }
    }

    /// `in`, `out` or `inout` for `hw.module` ports.
    pub fn direction(&self) -> Option<SyntaxToken<'t>> {
        let mut tokens = self.0.grammar_tokens();
        let first = tokens.next()?;
        let second = tokens.next()?;
        (first.kind() == IDENT && matches!(second.kind(), VALUE_ID | IDENT)).then_some(first)
    }

    pub fn is_variadic_marker(&self) -> bool {
        token(self.0, ELLIPSIS).is_some()
    }

    pub fn ty(&self) -> Option<Type<'t>> {
        child(self.0)
    }

    pub fn attributes(&self) -> Option<AttrDict<'t>> {
        child(self.0)
    }
}

impl<'t> FuncResult<'t> {
    pub fn ty(&self) -> Option<Type<'t>> {
        child(self.0)
    }

    pub fn attributes(&self) -> Option<AttrDict<'t>> {
        child(self.0)
    }
}

impl<'t> TypeList<'t> {
    /// Types and bracketed type lists in order, across `to` / `->`.
    pub fn types(&self) -> impl Iterator<Item = SyntaxNode<'t>> {
        self.0.children().filter(|n| matches!(n.kind(), TYPE | BRACKET_TYPE_LIST))
    }
}

impl<'t> Type<'t> {
    /// The leading name: `i32`, `!handshake.channel`, `memref`; `None` for `<i32>` and
    /// function types.
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        self.0.grammar_tokens().find(|t| matches!(t.kind(), IDENT | BANG_ID))
    }

    /// The `<...>` of a channel or control type, including Dynamatic's short form.
    pub fn channel_params(&self) -> Option<SyntaxNode<'t>> {
        self.0.children().find(|n| n.kind() == CHANNEL_PARAMS)
    }

    pub fn function_type(&self) -> Option<SyntaxNode<'t>> {
        self.0.children().find(|n| n.kind() == FUNCTION_TYPE)
    }
}

impl<'t> AttrDict<'t> {
    pub fn entries(&self) -> impl Iterator<Item = AttrEntry<'t>> {
        children(self.0)
    }

    pub fn get(&self, key: &str) -> Option<AttrEntry<'t>> {
        self.entries().find(|e| e.key() == Some(key))
    }
}

impl<'t> AttrEntry<'t> {
    /// The key, with quotes stripped from string keys.
    pub fn key(&self) -> Option<&'t str> {
        let first = self.0.grammar_tokens().find(|t| matches!(t.kind(), IDENT | STRING))?;
        let text = first.text();
        Some(text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text))
    }

    pub fn value(&self) -> Option<Attr<'t>> {
        child(self.0)
    }
}

impl<'t> Attr<'t> {
    pub fn text(&self) -> &'t str {
        self.0.text()
    }
}

impl<'t> AliasDef<'t> {
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        self.0.grammar_tokens().find(|t| matches!(t.kind(), HASH_ID | BANG_ID))
    }
}

impl<'t> KeywordGroup<'t> {
    pub fn keyword(&self) -> Option<&'t str> {
        token(self.0, IDENT).map(|t| t.text())
    }
}

impl<'t> PipelineInput<'t> {
    pub fn inner(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, VALUE_ID)
    }

    pub fn ty(&self) -> Option<Type<'t>> {
        child(self.0)
    }

    pub fn outer(&self) -> Option<Operand<'t>> {
        child(self.0)
    }
}

impl<'t> PipelineOutput<'t> {
    pub fn name(&self) -> Option<SyntaxToken<'t>> {
        token(self.0, IDENT)
    }

    pub fn ty(&self) -> Option<Type<'t>> {
        child(self.0)
    }
}
