//! `hsir check [--format human|json] FILE...`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use ariadne::{Config, IndexType, Label, Report, ReportKind};
use hsir_analysis::{Database, Diagnostic, DiagnosticCode, FileId, Severity, TextRange};
use serde::Serialize;

use super::LoadedFile;

/// One file's output: its name, its text and what was found in it.
struct Checked<'a> {
    name: &'a str,
    text: &'a str,
    /// What is shown: at most `MAX_SHOWN`, then an HS0007 note for the rest.
    diagnostics: &'a [Diagnostic],
    /// Errors and warnings found, shown or not.
    errors: usize,
    warnings: usize,
}
use crate::position::{Encoding, LineIndex, Span};
use crate::Format;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    range: Span,
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    related: Vec<JsonRelated<'a>>,
    fixes: Vec<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    label: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    range: Span,
    new_text: &'a str,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    file: &'a str,
    range: Span,
    message: &'a str,
}

/// Reads `CODE=LEVEL` overrides, or says on stderr what is wrong with one.
fn severity_config(overrides: &[String]) -> Result<hsir_analysis::Config, ()> {
    let mut config = hsir_analysis::Config::default();
    for entry in overrides {
        let Some((code, level)) = entry.split_once('=') else {
            eprintln!("error: `--severity {entry}` must be CODE=LEVEL, e.g. HS1108=off");
            return Err(());
        };
        let Some(code) = DiagnosticCode::from_code(code.trim()) else {
            eprintln!("error: `{code}` in `--severity {entry}` is not a diagnostic code (see docs/diagnostics)");
            return Err(());
        };
        let Some(level) = Severity::parse_level(level) else {
            eprintln!("error: `{}` in `--severity {entry}` is not a level: use error, warning, information, hint or off", level.trim());
            return Err(());
        };
        config.severity.insert(code, level);
    }
    Ok(config)
}

pub fn run(paths: &[PathBuf], format: Format, severity: &[String]) -> u8 {
    let Ok(config) = severity_config(severity) else {
        return super::EXIT_USAGE_OR_IO;
    };
    let mut io_failed = false;
    let mut loaded: Vec<LoadedFile> = Vec::new();
    for path in paths {
        match super::load(path) {
            Ok(file) => loaded.push(file),
            Err(()) => io_failed = true,
        }
    }
    // All files in one database, so that instances resolve across them. The parses move in;
    // the output reads the texts back from the database.
    let mut db = Database::new();
    db.set_config(config);
    let mut files: Vec<(FileId, String, Option<Diagnostic>)> = Vec::new();
    for (i, file) in loaded.into_iter().enumerate() {
        let id = FileId(i as u32);
        db.set_parse(id, file.parse);
        files.push((id, file.name, file.decode_error));
    }
    let mut diagnostics: Vec<Vec<Diagnostic>> = Vec::new();
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for (id, _, decode_error) in &files {
        let mut found: Vec<Diagnostic> = decode_error.iter().cloned().collect();
        found.extend(db.diagnostics(*id));
        let count = |severity| found.iter().filter(|d| d.severity == severity).count();
        counts.push((count(Severity::Error), count(Severity::Warning)));
        hsir_analysis::cap_shown(&mut found);
        diagnostics.push(found);
    }
    let checked: Vec<Checked<'_>> = files
        .iter()
        .zip(&diagnostics)
        .zip(&counts)
        .map(|(((id, name, _), diagnostics), &(errors, warnings))| Checked {
            name,
            text: db.text(*id).unwrap_or_default(),
            diagnostics,
            errors,
            warnings,
        })
        .collect();
    let written = match format {
        Format::Human => write_human(&checked),
        Format::Json => write_json(&checked),
    };
    if let Err(err) = written {
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {err}");
            return super::EXIT_USAGE_OR_IO;
        }
    }
    let has_error = counts.iter().any(|&(errors, _)| errors > 0);
    if io_failed {
        super::EXIT_USAGE_OR_IO
    } else if has_error {
        1
    } else {
        0
    }
}

fn write_json(checked: &[Checked<'_>]) -> std::io::Result<()> {
    let mut out = Vec::new();
    for &Checked { name, text, diagnostics, .. } in checked {
        let index = LineIndex::new(text);
        let lines = index.view(text);
        let range = |r| lines.range(r, Encoding::Utf16);
        for d in diagnostics {
            out.push(JsonDiagnostic {
                file: name,
                range: range(d.range),
                severity: d.severity.as_str(),
                code: d.code.code(),
                message: &d.message,
                related: d
                    .related
                    .iter()
                    .map(|r| JsonRelated { file: name, range: range(r.range), message: &r.message })
                    .collect(),
                fixes: d
                    .fixes
                    .iter()
                    .map(|f| JsonFix {
                        label: &f.label,
                        edits: f
                            .edits
                            .iter()
                            .map(|e| JsonEdit { range: range(e.range), new_text: &e.new_text })
                            .collect(),
                    })
                    .collect(),
            });
        }
    }
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut stdout, &out).map_err(std::io::Error::from)?;
    writeln!(stdout)?;
    stdout.flush()
}

/// Ariadne needs a non-empty span to draw a label: widen an empty one to the character after
/// it, or before it at the end of the text.
fn label_span(text: &str, range: TextRange) -> std::ops::Range<usize> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    if start < end {
        return start..end;
    }
    if let Some(c) = text[start..].chars().next().filter(|c| *c != '\n') {
        return start..start + c.len_utf8();
    }
    match text[..start].chars().next_back() {
        Some(c) => start - c.len_utf8()..start,
        None => start..start,
    }
}

/// Lines longer than this are not drawn under a diagnostic.
const LONG_LINE: usize = 2000;

fn write_human(checked: &[Checked<'_>]) -> std::io::Result<()> {
    let color = std::io::stdout().is_terminal();
    let config = Config::default().with_color(color).with_index_type(IndexType::Byte);
    let mut stdout = std::io::stdout().lock();
    let (mut errors, mut warnings) = (0usize, 0usize);
    for &Checked { name, text, diagnostics, errors: e, warnings: w } in checked {
        errors += e;
        warnings += w;
        let mut cache = (name, ariadne::Source::from(text));
        let index = LineIndex::new(text);
        let lines = index.view(text);
        for d in diagnostics {
            // ariadne draws the whole line of each label: on a line of 100,000 operands that
            // is most of a second per diagnostic. Such a line is named, not drawn.
            let at = lines.pos(d.range.start(), Encoding::Utf16);
            let long = [d.range.start(), d.range.end()].into_iter().any(|offset| {
                let line = lines.pos(offset, Encoding::Utf8).line as usize;
                lines.line(line).is_some_and(|(start, end)| end - start > LONG_LINE)
            });
            if long {
                writeln!(
                    stdout,
                    "[{}] {}: {}\n   at {name}:{}:{} (a line of more than {LONG_LINE} bytes, not shown)",
                    d.code.code(),
                    match d.severity {
                        Severity::Error => "Error",
                        Severity::Warning => "Warning",
                        Severity::Information | Severity::Hint => "Advice",
                    },
                    d.message,
                    at.line + 1,
                    at.character + 1,
                )?;
                continue;
            }
            let kind = match d.severity {
                Severity::Error => ReportKind::Error,
                Severity::Warning => ReportKind::Warning,
                Severity::Information | Severity::Hint => ReportKind::Advice,
            };
            let span = label_span(text, d.range);
            let mut report = Report::build(kind, (name, span.clone()))
                .with_config(config)
                .with_code(d.code.code())
                .with_message(&d.message)
                .with_label(Label::new((name, span)).with_message(d.code.title()));
            for related in &d.related {
                report = report.with_label(
                    Label::new((name, label_span(text, related.range)))
                        .with_message(&related.message),
                );
            }
            report.finish().write(&mut cache, &mut stdout)?;
        }
    }
    let files = checked.len();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors + warnings == 0 {
        writeln!(stdout, "{}: no problems found", plural(files, "file"))?;
    } else {
        writeln!(
            stdout,
            "{}, {} in {}",
            plural(errors, "error"),
            plural(warnings, "warning"),
            plural(files, "file")
        )?;
    }
    stdout.flush()
}
