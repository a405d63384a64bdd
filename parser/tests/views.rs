//! Typed views and tree navigation: each test walks a fixture through the API the analysis will
//! use and snapshots what it sees.

use expect_test::{expect, Expect};
use hsir_parser::ast::{AstNode, Op, SourceFile};
use hsir_parser::{parse, SyntaxKind, TextSize};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/ok").join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Every op in preorder with its name, results, operands, regions and attribute keys.
fn describe_ops(text: &str) -> String {
    let parsed = parse(text);
    let mut out = String::new();
    for node in parsed.root().descendants() {
        let Some(op) = Op::cast(node) else { continue };
        let depth = node.ancestors().filter(|a| a.kind() == SyntaxKind::OP).count() - 1;
        let results: Vec<String> = op
            .results()
            .map(|r| format!("{}x{}", r.name().map_or("?", |t| t.text()), r.count()))
            .collect();
        let operands: Vec<&str> =
            op.operands().iter().filter_map(|o| o.value()).map(|t| t.text()).collect();
        let attrs: Vec<&str> = op.attributes().iter().filter_map(|a| a.key()).collect();
        let types: Vec<String> = op
            .type_lists()
            .flat_map(|l| l.types().map(|t| t.text().to_string()).collect::<Vec<_>>())
            .collect();
        out.push_str(&format!(
            "{}{}{} results=[{}] operands=[{}] regions={} attrs=[{}] types=[{}]\n",
            "  ".repeat(depth),
            op.name().unwrap_or("<none>"),
            if op.is_generic() { " (generic)" } else { "" },
            results.join(", "),
            operands.join(", "),
            op.regions().len(),
            attrs.join(", "),
            types.join(", "),
        ));
    }
    out
}

fn check_ops(name: &str, expect: Expect) {
    expect.assert_eq(&describe_ops(&fixture(name)));
}

#[test]
fn ops_of_dynamatic_handshake() {
    check_ops(
        "dynamatic_handshake.mlir",
        expect![[r#"
            handshake.func results=[] operands=[] regions=1 attrs=[argNames, resNames] types=[]
              buffer results=[%0x1] operands=[%b] regions=0 attrs=[bufferType, numSlots, dvLatency, handshake.bb] types=[<i32>]
              mux results=[%1x1] operands=[%sel, %0, %a] regions=0 attrs=[] types=[<i1>, [<i32>, <i32>], <i32>]
              control_merge results=[%resultx1, %indexx1] operands=[%start, %start] regions=0 attrs=[] types=[[<>, <>], <>, <i1>]
              fork results=[%2x2] operands=[%1] regions=0 attrs=[] types=[<i32>]
              buffer results=[%3x1] operands=[%2#0] regions=0 attrs=[hw.parameters] types=[<i32>]
              unbundle results=[%ctrlx1, %datax1] operands=[%3] regions=0 attrs=[] types=[<i32>, _]
              source results=[%4x1] operands=[] regions=0 attrs=[] types=[<[spec: i1]>]
              constant results=[%5x1] operands=[%4] regions=0 attrs=[value] types=[<[spec: i1]>, <i32, [spec: i1]>]
              sink results=[] operands=[%5] regions=0 attrs=[] types=[<i32, [spec: i1]>]
              end results=[] operands=[%2#1, %result] regions=0 attrs=[] types=[<i32>, <>]
            handshake.func results=[] operands=[] regions=1 attrs=[] types=[]
              unbundle results=[%validx1, %readyx1] operands=[%c] regions=0 attrs=[] types=[control, _]
              compose results=[%wx1] operands=[%a] regions=0 attrs=[] types=[channel<i32, [tag1: i2, (U) i1]>, channel<i38>]
              end results=[] operands=[%w] regions=0 attrs=[] types=[channel<i38>]
        "#]],
    );
}

#[test]
fn ops_of_generic_form() {
    check_ops(
        "generic_form.mlir",
        expect![[r#"
        builtin.module (generic) results=[] operands=[] regions=1 attrs=[] types=[() -> ()]
          handshake.func (generic) results=[] operands=[] regions=1 attrs=[argNames, function_type, resNames, sym_name] types=[() -> ()]
            handshake.fork (generic) results=[%0x2] operands=[%arg0] regions=0 attrs=[] types=[(i32) -> (i32, i32)]
            handshake.sink (generic) results=[] operands=[%0#1] regions=0 attrs=[] types=[(i32) -> ()]
            handshake.return (generic) results=[] operands=[%0#0, %arg1] regions=0 attrs=[] types=[(i32, none) -> ()]
          cf.cond_br (generic) results=[] operands=[%c, %x] regions=0 attrs=[] types=[(i1, i32) -> ()]
    "#]],
    );
}

#[test]
fn signatures_blocks_and_pipelines() {
    let text = fixture("pipeline.mlir");
    let parsed = parse(text.as_str());
    let mut out = String::new();
    for node in parsed.root().descendants() {
        let Some(op) = Op::cast(node) else { continue };
        if let Some(signature) = op.signature() {
            let args: Vec<String> = signature
                .args()
                .iter()
                .map(|a| {
                    format!(
                        "{}{}: {}",
                        a.direction().map_or(String::new(), |d| format!("{} ", d.text())),
                        a.name().map_or("_", |n| n.text()),
                        a.ty().map_or("?", |t| t.syntax().text())
                    )
                })
                .collect();
            let results: Vec<&str> = signature
                .results()
                .iter()
                .filter_map(|r| r.ty())
                .map(|t| t.syntax().text())
                .collect();
            out.push_str(&format!(
                "{} {}({}) -> ({})\n",
                op.name().unwrap(),
                signature.name().unwrap().text(),
                args.join(", "),
                results.join(", ")
            ));
        }
        let inputs = op.pipeline_inputs();
        if !inputs.is_empty() {
            let inputs: Vec<String> = inputs
                .iter()
                .map(|i| {
                    format!(
                        "{} : {} = {}",
                        i.inner().unwrap().text(),
                        i.ty().unwrap().syntax().text(),
                        i.outer().and_then(|o| o.value()).unwrap().text()
                    )
                })
                .collect();
            let outputs: Vec<String> = op
                .pipeline_outputs()
                .iter()
                .map(|o| {
                    format!("{} : {}", o.name().unwrap().text(), o.ty().unwrap().syntax().text())
                })
                .collect();
            let keywords: Vec<&str> = op.keyword_groups().filter_map(|k| k.keyword()).collect();
            out.push_str(&format!(
                "{} inputs [{}] keywords [{}] outputs [{}]\n",
                op.name().unwrap(),
                inputs.join(", "),
                keywords.join(", "),
                outputs.join(", ")
            ));
            for region in op.regions() {
                for block in region.blocks() {
                    let label = block.label().map_or(String::from("(entry)"), |l| {
                        let args: Vec<String> = l
                            .args()
                            .iter()
                            .map(|a| {
                                format!(
                                    "{}: {}",
                                    a.name().unwrap().text(),
                                    a.ty().unwrap().syntax().text()
                                )
                            })
                            .collect();
                        format!("{}({})", l.name().unwrap().text(), args.join(", "))
                    });
                    let ops: Vec<&str> = block.ops().filter_map(|o| o.name()).collect();
                    out.push_str(&format!("  block {label}: {}\n", ops.join(", ")));
                }
            }
        }
    }
    expect![[r#"
        hw.module @p(in %arg0: i32, in %stall: i1, in %go: i1, in %clk: !seq.clock, in %rst: i1, out out: i32) -> ()
        pipeline.scheduled inputs [%a0 : i32 = %arg0] keywords [stall, clock, reset, go, entryEn] outputs [out : i32]
          block (entry): comb.add, hw.constant, pipeline.stage
          block ^bb1(%s1_reg: i32, %s1_pass: i32, %s1_enable: i1): pipeline.latency, pipeline.stage
          block ^bb2(%s2_reg: i32, %s2_enable: i1): pipeline.return
        pipeline.unscheduled inputs [%a0 : i32 = %arg0] keywords [clock, reset, go, entryEn] outputs [out : i32]
          block (entry): pipeline.return
        func.func @old(%arg0: i32, %go: i1) -> (i32)
    "#]]
    .assert_eq(&out);
}

#[test]
fn aliases_dictionaries_and_split_markers() {
    let text = fixture("top_level.mlir");
    let parsed = parse(text.as_str());
    let file = SourceFile::cast(parsed.root()).unwrap();
    let aliases: Vec<&str> = file.aliases().filter_map(|a| a.name()).map(|t| t.text()).collect();
    assert_eq!(aliases, ["#map", "#loc0", "!chan", "!tup"]);
    assert_eq!(file.split_markers().count(), 1);
    let module = file.ops().next().unwrap();
    assert_eq!(module.name(), Some("module"));
    let dict = module.attr_dicts().into_iter().next().unwrap();
    assert_eq!(
        dict.get("circt.loweringOptions").and_then(|e| e.value()).map(|v| v.text()),
        Some("\"disallowLocalVariables\"")
    );
    assert!(dict.get("unit_attr").is_some_and(|e| e.value().is_none()));
    assert!(dict.get("missing").is_none());
}

#[test]
fn token_at_offset_and_covering_node() {
    let text = "%0 = fork [2] %a : i32\n";
    let parsed = parse(text);
    let root = parsed.root();
    let at = |needle: &str| TextSize::from(text.find(needle).unwrap() as u32);
    let token = root.token_at_offset(at("%a")).unwrap();
    assert_eq!((token.kind(), token.text()), (SyntaxKind::VALUE_ID, "%a"));
    assert_eq!(token.parent().kind(), SyntaxKind::OPERAND);
    // Inside a token, and at the boundary to the right of one.
    let inside = root.token_at_offset(at("ork")).unwrap();
    assert_eq!(inside.text(), "fork");
    let end = root.token_at_offset(TextSize::of(text)).unwrap();
    assert_eq!(end.kind(), SyntaxKind::WHITESPACE);
    let covering = root.covering_node(
        token.text_range().cover(root.token_at_offset(at("i32")).unwrap().text_range()),
    );
    assert_eq!(covering.kind(), SyntaxKind::OP);
    let prev = token.prev_token().unwrap();
    assert_eq!(prev.kind(), SyntaxKind::WHITESPACE);
    assert_eq!(prev.prev_token().unwrap().text(), "]");
    assert_eq!(token.next_token().unwrap().next_token().unwrap().text(), ":");
    let op = root.children().next().unwrap();
    let names: Vec<String> = op.children().map(|c| format!("{c:?}")).collect();
    assert_eq!(
        names,
        [
            "RESULT_LIST@0..4",
            "OP_NAME@5..9",
            "BRACKET_GROUP@10..13",
            "OPERAND@14..16",
            "TYPE_LIST@17..22"
        ]
    );
    assert_eq!(op.next_sibling().map(|s| s.kind()), Some(SyntaxKind::WHITESPACE));
}

/// The values scf and affine ops bind for their regions, and their operands: `%i` of
/// `scf.for %i = %lb` is a region argument, `%lb` an operand.
#[test]
fn region_args_of_structured_control_flow() {
    let parsed = parse(fixture("structured_control_flow.mlir"));
    let mut out = String::new();
    for node in parsed.root().descendants() {
        let Some(op) = Op::cast(node) else { continue };
        let args: Vec<&str> =
            op.region_args().iter().filter_map(|a| a.name()).map(|t| t.text()).collect();
        if args.is_empty() {
            continue;
        }
        let operands: Vec<&str> =
            op.operands().iter().filter_map(|o| o.value()).map(|t| t.text()).collect();
        let name = op.name().unwrap_or("<none>");
        out.push_str(&format!(
            "{name} args=[{}] operands=[{}]\n",
            args.join(", "),
            operands.join(", ")
        ));
    }
    expect![[r#"
        scf.for args=[%i] operands=[%lb, %ub, %st]
        scf.for args=[%j] operands=[%lb, %ub, %st]
        scf.for args=[%i, %acc, %k] operands=[%lb, %ub, %st, %z, %x]
        scf.while args=[%a, %b] operands=[%x, %n]
        affine.for args=[%k] operands=[%lb, %ub]
        affine.for args=[%k, %t] operands=[%ub, %z]
        scf.parallel args=[%p, %q] operands=[%lb, %lb, %ub, %ub, %st, %st]
        scf.forall args=[%p] operands=[%n]
    "#]]
    .assert_eq(&out);
}
