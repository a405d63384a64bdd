//! Semantic tokens: rendered tables for each dialect family, and the LSP shape rules (sorted,
//! disjoint, one line each) on every corpus file.

#[path = "../../test-support/shared.rs"]
mod shared;

use expect_test::{expect, Expect};
use hsir_analysis::ide::semantic_tokens::{
    semantic_tokens, SemanticToken, MOD_DEFINITION, MOD_DEPRECATED,
};
use hsir_analysis::ide::Fixture;
use hsir_analysis::{Database, FileId, TextRange, TextSize};

fn render(text: &str, tokens: &[SemanticToken]) -> String {
    let mut out = String::new();
    for token in tokens {
        let mut mods = Vec::new();
        if token.modifiers & MOD_DEFINITION != 0 {
            mods.push("definition");
        }
        if token.modifiers & MOD_DEPRECATED != 0 {
            mods.push("deprecated");
        }
        out.push_str(&format!(
            "{:<28} {:<10} {}\n",
            &text[token.range],
            token.kind.name(),
            mods.join(",")
        ));
    }
    out
}

fn check(fixture: &str, expect: Expect) {
    let mut fixture = Fixture::parse(fixture);
    let file = fixture.files[0].1;
    let analysis = fixture.db.analysis();
    let text = analysis.text(file).unwrap();
    let tokens = semantic_tokens(&analysis, file, None);
    assert_shape(text, &tokens);
    expect.assert_eq(&render(text, &tokens));
}

/// Sorted, disjoint, non-empty, on one line, inside the text.
fn assert_shape(text: &str, tokens: &[SemanticToken]) {
    let mut end = TextSize::from(0);
    for token in tokens {
        assert!(token.range.start() >= end, "overlap or disorder at {:?}", token.range);
        assert!(!token.range.is_empty(), "empty token at {:?}", token.range);
        assert!(token.range.end() <= TextSize::of(text));
        assert!(!text[token.range].contains('\n'), "multi-line token at {:?}", token.range);
        end = token.range.end();
    }
}

#[test]
fn circt_function() {
    check(
        r#"// A CIRCT-style function.
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["a", "ctrl"]} {
  %0:2 = fork [2] %a : i32
  %b = buffer [2] seq %0#0 : i32
  %c = "handshake.merge"(%b) : (i32) -> i32
  sink %0#1 : i32
  return %c, %ctrl : i32, none
}
"#,
        expect![[r#"
            // A CIRCT-style function.   comment    
            handshake                    dialect    
            func                         op         
            @f                           symbol     definition
            %a                           value      definition
            i32                          type       
            %ctrl                        value      definition
            none                         type       
            i32                          type       
            none                         type       
            attributes                   keyword    
            argNames                     attribute  
            "a"                          string     
            "ctrl"                       string     
            %0                           value      definition
            2                            number     
            fork                         op         
            2                            number     
            %a                           value      
            i32                          type       
            %b                           value      definition
            buffer                       op         
            2                            number     
            seq                          keyword    
            %0#0                         value      
            i32                          type       
            %c                           value      definition
            handshake                    dialect    
            merge                        op         
            %b                           value      
            (i32) -> i32                 type       
            sink                         op         
            %0#1                         value      
            i32                          type       
            return                       op         
            %c                           value      
            %ctrl                        value      
            i32                          type       
            none                         type       
        "#]],
    );
}

#[test]
fn dynamatic_function() {
    check(
        r#"module {
  handshake.func @g(%a: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> (!handshake.channel<i32>) {
    %b = buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, BUFFER_TYPE = "OEHB", TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
    %c = buffer %b, bufferType = TEHB, numSlots = 1 : <i32, [e: i1 (U)]>
    %d = buffer %c, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
    end %d, %start : <i32>, <>
  }
}
"#,
        expect![[r#"
            module                       op         
            handshake                    dialect    
            func                         op         
            @g                           symbol     definition
            %a                           value      definition
            !handshake.channel<i32>      type       
            %start                       value      definition
            !handshake.control<>         type       
            !handshake.channel<i32>      type       
            %b                           value      definition
            buffer                       op         
            %a                           value      
            hw.parameters                attribute  
            NUM_SLOTS                    attribute  
            1                            number     
            ui32                         type       
            BUFFER_TYPE                  attribute  
            "OEHB"                       string     deprecated
            TIMING                       attribute  
            #handshake                   attribute  
            timing                       keyword    
            D                            attribute  
            1                            number     
            V                            attribute  
            1                            number     
            R                            attribute  
            0                            number     
            <i32>                        type       
            %c                           value      definition
            buffer                       op         
            %b                           value      
            bufferType                   attribute  
            TEHB                         keyword    deprecated
            numSlots                     attribute  
            1                            number     
            <i32, [e: i1 (U)]>           type       
            %d                           value      definition
            buffer                       op         
            %c                           value      
            bufferType                   attribute  
            FIFO_BREAK_NONE              keyword    
            numSlots                     attribute  
            2                            number     
            <i32>                        type       
            end                          op         
            %d                           value      
            %start                       value      
            <i32>                        type       
            <>                           type       
        "#]],
    );
}

#[test]
fn pipeline_module() {
    check(
        r#"hw.module @p(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0) -> (out: i32) {
    %0 = comb.add %a0, %a0 : i32
    pipeline.stage ^bb1 regs(%0 : i32)
  ^bb1(%r : i32, %s1 : i1):
    pipeline.return %r : i32
  }
  hw.output %p#0 : i32
}
"#,
        expect![[r#"
            hw                           dialect    
            module                       op         
            @p                           symbol     definition
            in                           keyword    
            %arg0                        value      definition
            i32                          type       
            in                           keyword    
            %go                          value      definition
            i1                           type       
            in                           keyword    
            %clk                         value      definition
            !seq.clock                   type       
            in                           keyword    
            %rst                         value      definition
            i1                           type       
            out                          keyword    
            i32                          type       
            %p                           value      definition
            2                            number     
            pipeline                     dialect    
            scheduled                    op         
            %a0                          value      definition
            i32                          type       
            %arg0                        value      
            clock                        keyword    
            %clk                         value      
            reset                        keyword    
            %rst                         value      
            go                           keyword    
            %go                          value      
            entryEn                      keyword    
            %s0                          value      
            i32                          type       
            %0                           value      definition
            comb                         dialect    
            add                          op         
            %a0                          value      
            %a0                          value      
            i32                          type       
            pipeline                     dialect    
            stage                        op         
            ^bb1                         block      
            regs                         keyword    
            %0                           value      
            i32                          type       
            ^bb1                         block      definition
            %r                           value      definition
            i32                          type       
            %s1                          value      definition
            i1                           type       
            pipeline                     dialect    
            return                       op         
            %r                           value      
            i32                          type       
            hw                           dialect    
            output                       op         
            %p#0                         value      
            i32                          type       
        "#]],
    );
}

#[test]
fn loom_ops_and_gaps() {
    check(
        r#"// -----
handshake.func @k(%s: index, %t: index, %n: index, %ctrl: none) -> (index, i1, none) {
  %idx, %wc = dataflow.stream %s, %t, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %c = dataflow.gate %idx, %wc : index, i1 -> index, i1
  return %v, %c, %ctrl : index, i1, none
}
// trailing comment
"#,
        expect![[r#"
            // -----                     comment    
            handshake                    dialect    
            func                         op         
            @k                           symbol     definition
            %s                           value      definition
            index                        type       
            %t                           value      definition
            index                        type       
            %n                           value      definition
            index                        type       
            %ctrl                        value      definition
            none                         type       
            index                        type       
            i1                           type       
            none                         type       
            %idx                         value      definition
            %wc                          value      definition
            dataflow                     dialect    
            stream                       op         
            %s                           value      
            %t                           value      
            %n                           value      
            step_op                      attribute  
            "+="                         string     
            cont_cond                    attribute  
            "<"                          string     
            (index, index, index) -> (index, i1) type       
            %v                           value      definition
            %c                           value      definition
            dataflow                     dialect    
            gate                         op         
            %idx                         value      
            %wc                          value      
            index                        type       
            i1                           type       
            index                        type       
            i1                           type       
            return                       op         
            %v                           value      
            %c                           value      
            %ctrl                        value      
            index                        type       
            i1                           type       
            none                         type       
            // trailing comment          comment    
        "#]],
    );
}

#[test]
fn broken_and_empty_texts_give_well_shaped_tokens() {
    let texts = [
        "",
        "\n",
        "// only a comment",
        "handshake.func @f(%a: i32",
        "handshake.func @f(%a: i32) -> i32 {\n  %0 = fork [2 %a : <i32\n  \"unterminated\n}",
        "%x = \"a\\\nb\" : i32\n",
        "module {\n// -----\n}\n}}}",
    ];
    for text in texts {
        let mut db = Database::new();
        db.set_text(FileId(0), text.to_string());
        let analysis = db.analysis();
        let tokens = semantic_tokens(&analysis, FileId(0), None);
        assert_shape(text, &tokens);
        let end = TextSize::of(text);
        let past = TextRange::new(end, end + TextSize::from(10));
        assert!(semantic_tokens(&analysis, FileId(0), Some(past)).is_empty());
    }
}

/// Every corpus file, or `None` (the test is skipped) without the corpus.
fn corpus_files() -> Option<Vec<std::path::PathBuf>> {
    shared::mlir_files_under("corpus")
}

/// On every corpus file: the tokens are well shaped, every comment line is a comment token,
/// and a range request gives exactly the whole-file tokens that intersect the range.
#[test]
fn corpus_tokens_are_sorted_disjoint_and_single_line() {
    let Some(files) = corpus_files() else { return };
    assert!(files.len() > 50, "the corpus is missing: {} files", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut db = Database::new();
        db.set_text(FileId(0), text.clone());
        let analysis = db.analysis();
        let tokens = semantic_tokens(&analysis, FileId(0), None);
        assert_shape(&text, &tokens);
        let comments = tokens.iter().filter(|t| text[t.range].starts_with("//")).count();
        let comment_lines = text.lines().filter(|l| l.trim_start().starts_with("//")).count();
        assert!(comments >= comment_lines, "{}: comments missed", path.display());

        let third = TextSize::from((text.len() / 3) as u32);
        let range = TextRange::new(third, third + third);
        let ranged = semantic_tokens(&analysis, FileId(0), Some(range));
        let expected: Vec<SemanticToken> = tokens
            .iter()
            .copied()
            .filter(|t| t.range.start() < range.end() && range.start() < t.range.end())
            .collect();
        assert_eq!(ranged, expected, "{}: range request differs", path.display());
    }
}
