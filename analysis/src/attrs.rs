//! Reading attribute values that the lowering keeps as text (`ir::Attribute::value`): one
//! reader of array attributes for the checks and the backend alike.
//!
//! An array's entries may themselves hold commas (`["a, b", [1, 2], #map<(d0, d1)>]`), so the
//! entries are split only at commas outside strings and brackets.

/// The top-level entries of an array attribute's text (`[1, 2 : i32]`, `["a", "b"]`),
/// trimmed, in order; `Some(vec![])` for `[]`, `None` when the text is not an array.
pub fn array(text: &str) -> Option<Vec<&str>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    if inner.trim().is_empty() {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, b) in inner.bytes().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'<' | b'(' | b'{' => depth += 1,
            b']' | b'>' | b')' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[start..].trim());
    Some(out)
}

/// The strings of an array of strings (`["a", "b"]`), unquoted; an entry that is not a string
/// is given as written.
pub fn strings(text: &str) -> Option<Vec<&str>> {
    let entries = array(text)?;
    Some(
        entries
            .into_iter()
            .map(|e| e.strip_prefix('"').and_then(|e| e.strip_suffix('"')).unwrap_or(e))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_split_only_at_the_top_level() {
        assert_eq!(array("[1, 2 : i32]"), Some(vec!["1", "2 : i32"]));
        assert_eq!(array(" [] "), Some(vec![]));
        assert_eq!(array("[[1, 2], [3]]"), Some(vec!["[1, 2]", "[3]"]));
        assert_eq!(array(r#"["a, b", "c\"]"]"#), Some(vec![r#""a, b""#, r#""c\"]""#]));
        assert_eq!(array("[#map<(d0, d1) -> (d0)>, {a = 1, b = 2}]").map(|v| v.len()), Some(2));
        assert_eq!(array("4 : i32"), None);
        assert_eq!(strings(r#"["in0", "x, y", 3]"#), Some(vec!["in0", "x, y", "3"]));
    }
}
