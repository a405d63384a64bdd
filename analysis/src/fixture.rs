//! MLIR's diagnostic annotations, read from fixture text, so that the same `.mlir` fixtures
//! drive the analysis tests, the CLI tests and the language-server tests.
//!
//! `// expected-error @+1 {{HS0003: unclosed}}` expects an error on the next line whose
//! rendered text (`CODE: message`) contains `HS0003: unclosed`. Locations: none (this line),
//! `@+N`, `@-N`, `@N` (absolute line), `@below` / `@above` (the next / previous line that is not
//! itself an annotation). Kinds: error, warning, note, remark. `// -----` separates cases; a
//! location never crosses a separator.

/// What an annotation expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// `error`, `warning`, `note` or `remark`.
    pub kind: String,
    /// 0-based line the diagnostic must be on.
    pub line: u32,
    /// The text between `{{` and `}}`.
    pub message: String,
    /// 0-based line of the annotation itself.
    pub annotation_line: u32,
}

/// A case of a split file: its 0-based line span and its expectations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub first_line: u32,
    pub end_line: u32,
    pub expectations: Vec<Expectation>,
}

fn is_annotation(line: &str) -> bool {
    line.trim_start().starts_with("//") && line.contains("expected-")
}

/// Splits `text` at `// -----` lines and reads every annotation.
pub fn cases(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cases = Vec::new();
    let mut first = 0usize;
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("// -----") {
            cases.push((first, i));
            first = i + 1;
        }
    }
    cases.push((first, lines.len()));
    cases
        .into_iter()
        .map(|(first, end)| Case {
            first_line: first as u32,
            end_line: end as u32,
            expectations: (first..end)
                .filter_map(|i| parse_annotation(&lines, i, first, end))
                .collect(),
        })
        .collect()
}

/// All expectations of all cases.
pub fn expectations(text: &str) -> Vec<Expectation> {
    cases(text).into_iter().flat_map(|c| c.expectations).collect()
}

fn parse_annotation(lines: &[&str], i: usize, first: usize, end: usize) -> Option<Expectation> {
    let line = lines[i];
    let comment = &line[line.find("//")?..];
    let at = comment.find("expected-")?;
    let rest = &comment[at + "expected-".len()..];
    let kind_len = rest.find(|c: char| !c.is_ascii_alphabetic())?;
    let kind = &rest[..kind_len];
    if !matches!(kind, "error" | "warning" | "note" | "remark") {
        return None;
    }
    let rest = rest[kind_len..].trim_start();
    let (location, rest) = match rest.strip_prefix('@') {
        Some(after) => {
            let len = after.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(after.len());
            (Some(&after[..len]), after[len..].trim_start())
        }
        None => (None, rest),
    };
    let open = rest.find("{{")?;
    let close = rest[open..].find("}}")? + open;
    let message = rest[open + 2..close].to_string();
    let target = match location {
        None => Some(i),
        Some("below") => (i + 1..end).find(|&j| !is_annotation(lines[j])),
        Some("above") => (first..i).rev().find(|&j| !is_annotation(lines[j])),
        Some(offset) if offset.starts_with('+') => offset[1..].parse::<usize>().ok().map(|n| i + n),
        Some(offset) if offset.starts_with('-') => {
            offset[1..].parse::<usize>().ok().and_then(|n| i.checked_sub(n))
        }
        Some(absolute) => absolute.parse::<usize>().ok().map(|n| n.saturating_sub(1)),
    }?;
    Some(Expectation {
        kind: kind.to_string(),
        line: target as u32,
        message,
        annotation_line: i as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_follow_mlir() {
        let text = "\
a
// expected-error @+2 {{two down}}
// expected-warning @below {{next code line}}
b
c
// expected-note @-2 {{up}}
// expected-error @above {{previous code line}}
d // expected-remark {{same line}}
// -----
// expected-error @above {{nothing above in this case}}
// expected-error @7 {{absolute}}
";
        let found: Vec<(String, u32, String)> =
            expectations(text).into_iter().map(|e| (e.kind, e.line, e.message)).collect();
        assert_eq!(
            found,
            vec![
                ("error".into(), 3, "two down".into()),
                ("warning".into(), 3, "next code line".into()),
                ("note".into(), 3, "up".into()),
                ("error".into(), 4, "previous code line".into()),
                ("remark".into(), 7, "same line".into()),
                ("error".into(), 6, "absolute".into()),
            ]
        );
        assert_eq!(cases(text).len(), 2);
    }
}

/// A diagnostic as the annotations see it: kind, 0-based line, rendered `CODE: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    pub kind: String,
    pub line: u32,
    pub text: String,
}

/// Flattens diagnostics (and their related notes, as `note`s) for matching against
/// annotations. Information and hints count as `remark`s.
pub fn observe(text: &str, diagnostics: &[crate::Diagnostic]) -> Vec<Observed> {
    let line_of = |offset: crate::TextSize| -> u32 {
        text[..usize::from(offset).min(text.len())].matches('\n').count() as u32
    };
    let mut out = Vec::new();
    for d in diagnostics {
        let kind = match d.severity {
            crate::Severity::Error => "error",
            crate::Severity::Warning => "warning",
            crate::Severity::Information | crate::Severity::Hint => "remark",
        };
        out.push(Observed {
            kind: kind.to_string(),
            line: line_of(d.range.start()),
            text: format!("{}: {}", d.code.code(), d.message),
        });
        for related in &d.related {
            out.push(Observed {
                kind: "note".to_string(),
                line: line_of(related.range.start()),
                text: related.message.clone(),
            });
        }
    }
    out
}

/// Checks that every expectation of `text` is met by exactly one observed diagnostic and that
/// every observed diagnostic was expected. Returns a readable report of the differences.
pub fn verify(text: &str, observed: &[Observed]) -> Result<(), String> {
    let expected = expectations(text);
    let mut used = vec![false; observed.len()];
    let mut problems = Vec::new();
    for e in &expected {
        let hit = observed.iter().enumerate().position(|(i, o)| {
            !used[i] && o.kind == e.kind && o.line == e.line && o.text.contains(&e.message)
        });
        match hit {
            Some(i) => used[i] = true,
            None => problems.push(format!(
                "line {}: expected {} {{{{{}}}}} (annotation on line {}) was not reported",
                e.line + 1,
                e.kind,
                e.message,
                e.annotation_line + 1
            )),
        }
    }
    for (o, used) in observed.iter().zip(&used) {
        if !used {
            problems.push(format!("line {}: unexpected {}: {}", o.line + 1, o.kind, o.text));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}
