//! Any bytes: decoding never fails, parsing never panics, and the tree's text is the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, error) = hsir_parser::decode(data);
    assert_eq!(error.is_none(), std::str::from_utf8(data).is_ok());
    let parse = hsir_parser::parse(text.to_string());
    assert_eq!(parse.tree().rebuild_text(), text);
});
