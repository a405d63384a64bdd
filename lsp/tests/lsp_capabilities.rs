//! Diagnostics carry what the client declared it can show (`publishDiagnostics`
//! capabilities), and nothing it did not.

mod common;

use common::{repo_file, uri, Client};
use serde_json::{json, Value};

/// The diagnostics published for two fixtures: a combinational loop (related notes) and a
/// legacy buffer name (the deprecated tag).
fn published(client: &mut Client) -> Vec<Value> {
    let mut all = Vec::new();
    for name in ["HS2020_combinational_loop.mlir", "HS2002_legacy_buffer_type.mlir"] {
        let doc = uri(name);
        client.open(&doc, &repo_file(&format!("analysis/test_data/diagnostics/{name}")));
        let published = client.diagnostics(&doc, Some(0));
        all.extend(published["diagnostics"].as_array().cloned().unwrap_or_default());
    }
    all
}

fn count(diagnostics: &[Value], key: &str) -> usize {
    diagnostics.iter().filter(|d| !d[key].is_null()).count()
}

#[test]
fn a_client_that_shows_everything_gets_notes_links_and_tags() {
    let (mut client, _) = Client::initialized(Value::Null);
    let diagnostics = published(&mut client);
    assert!(count(&diagnostics, "relatedInformation") > 0, "{diagnostics:#?}");
    assert_eq!(count(&diagnostics, "codeDescription"), diagnostics.len(), "{diagnostics:#?}");
    let deprecated = diagnostics.iter().filter(|d| d["tags"] == json!([2])).count();
    assert!(deprecated > 0, "HS2002 is tagged deprecated: {diagnostics:#?}");
    client.shutdown();
}

#[test]
fn a_client_that_declares_nothing_gets_plain_diagnostics() {
    let (mut client, _) = Client::initialized_with(json!({}), Value::Null);
    let diagnostics = published(&mut client);
    assert!(!diagnostics.is_empty());
    for key in ["relatedInformation", "codeDescription", "tags"] {
        assert_eq!(count(&diagnostics, key), 0, "no `{key}`: {diagnostics:#?}");
    }
    // The message still names the problem on its own.
    assert!(diagnostics.iter().any(|d| d["code"] == "HS2020"
        && d["message"].as_str().is_some_and(|m| m.contains("combinational loop"))));
    client.shutdown();
}

#[test]
fn only_the_tags_the_client_knows_are_sent() {
    let capabilities = json!({"textDocument": {"publishDiagnostics": {
        "relatedInformation": true,
        "tagSupport": {"valueSet": [1]},
    }}});
    let (mut client, _) = Client::initialized_with(capabilities, Value::Null);
    let diagnostics = published(&mut client);
    assert!(count(&diagnostics, "relatedInformation") > 0);
    assert_eq!(count(&diagnostics, "codeDescription"), 0, "{diagnostics:#?}");
    assert!(!diagnostics.iter().any(|d| d["tags"] == json!([2])), "{diagnostics:#?}");
    client.shutdown();
}
