//! The dataflow graph of a function (`ide::graph`): its DOT on a buffered loop, and the SVG's
//! clickable nodes. Refresh with `UPDATE_EXPECT=1 cargo test -p hsir-analysis --test ide_graph`.

use expect_test::expect;
use hsir_analysis::ide::graph::{graph, NodeKind};
use hsir_analysis::ide::Fixture;
use hsir_analysis::TextSize;

const LOOP: &str = r#"
handshake.func @count(%n: i32, %start: none) -> (none) {
  %s:2 = fork [2] %start : none
  %ctrl, %index = control_merge %s#0, %back : none, index
  %go, %done = cond_br %c, %ctrl : none
  %back = buffer [1] seq %go : none
  %c = constant %s#1 {value = true} : i1
  sink %index : index
  sink %n : i32
  return %done : none
}
"#;

fn the_graph(text: &str) -> (hsir_analysis::ide::graph::Graph, String) {
    let mut f = Fixture::parse(text);
    let file = f.file("main.mlir");
    let analysis = f.db.analysis();
    let item = analysis.item_at(file, TextSize::from(10)).expect("the function");
    (graph(&item).expect("a handshake.func"), analysis.text(file).unwrap().to_string())
}

#[test]
fn a_loop_as_dot() {
    let (g, _) = the_graph(LOOP);
    expect![[r#"
        digraph "count" {
          node [fontname="monospace"];
          n0 [label="%n", shape=ellipse];
          n1 [label="%start", shape=ellipse];
          n2 [label="fork %s", shape=box];
          n3 [label="control_merge %ctrl", shape=box, color=red];
          n4 [label="cond_br %go", shape=box, color=red];
          n5 [label="buffer seq ×1", shape=box3d, color=red];
          n6 [label="constant %c", shape=box];
          n7 [label="sink", shape=box];
          n8 [label="sink", shape=box];
          n9 [label="return", shape=ellipse];
          n1 -> n2 [label="%start"];
          n2 -> n3 [label="%s#0"];
          n5 -> n3 [label="%back", style=dashed, color=red];
          n6 -> n4 [label="%c"];
          n3 -> n4 [label="%ctrl", color=red];
          n4 -> n5 [label="%go", color=red];
          n2 -> n6 [label="%s#1"];
          n3 -> n7 [label="%index"];
          n0 -> n8 [label="%n"];
          n4 -> n9 [label="%done"];
        }
    "#]]
    .assert_eq(&g.to_dot());
}

#[test]
fn svg_nodes_say_where_they_come_from() {
    let (g, text) = the_graph(LOOP);
    let svg = g.to_svg(&|offset| (offset, 0));
    assert!(svg.starts_with("<svg "), "{svg}");
    assert_eq!(svg.matches("<g class=\"node").count(), g.nodes.len());
    // The buffer's node points at the buffer op, and it is marked as on a cycle.
    let buffer = g.nodes.iter().find(|n| n.kind == NodeKind::Buffer).unwrap();
    assert_eq!(&text[buffer.range], "buffer");
    assert!(buffer.on_cycle);
    let start = u32::from(buffer.range.start());
    assert!(
        svg.contains(&format!("<g class=\"node buffer cycle\" data-start=\"{start}\"")),
        "{svg}"
    );
    // The way back is drawn dashed, against the layering.
    assert_eq!(g.edges.iter().filter(|e| e.back).count(), 1);
    assert!(svg.contains("stroke-dasharray"));
    // Layers follow the flow: the fork is below the argument it forks.
    let layer = |label: &str| g.nodes.iter().find(|n| n.label == label).unwrap().layer;
    assert!(layer("fork %s") > layer("%start"));
    assert!(layer("cond_br %go") > layer("control_merge %ctrl"));
}

#[test]
fn not_a_handshake_func() {
    let mut f = Fixture::parse("func.func @f() {\n  return\n}\n");
    let file = f.file("main.mlir");
    let analysis = f.db.analysis();
    let item = analysis.item_at(file, TextSize::from(3)).unwrap();
    assert!(graph(&item).is_none());
}
