//! `hsir check [--format human|json] FILE...`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use ariadne::{Config, IndexType, Label, Report, ReportKind};
use hsir_analysis::{Diagnostic, Severity, TextRange};
use serde::Serialize;

use super::LoadedFile;
use crate::convert::{Positions, Range};
use crate::Format;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    range: Range,
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    related: Vec<JsonRelated<'a>>,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    file: &'a str,
    range: Range,
    message: &'a str,
}

pub fn run(paths: &[PathBuf], format: Format) -> u8 {
    let mut io_failed = false;
    let mut checked: Vec<(LoadedFile, Vec<Diagnostic>)> = Vec::new();
    for path in paths {
        match super::load(path) {
            Ok(file) => {
                let mut diagnostics: Vec<Diagnostic> = file.decode_error.iter().cloned().collect();
                diagnostics.extend(hsir_analysis::check(&file.parse));
                checked.push((file, diagnostics));
            }
            Err(()) => io_failed = true,
        }
    }
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
    let has_error = checked.iter().flat_map(|(_, d)| d).any(|d| d.severity == Severity::Error);
    if io_failed {
        super::EXIT_USAGE_OR_IO
    } else if has_error {
        1
    } else {
        0
    }
}

fn write_json(checked: &[(LoadedFile, Vec<Diagnostic>)]) -> std::io::Result<()> {
    let mut out = Vec::new();
    for (file, diagnostics) in checked {
        let positions = Positions::new(file.parse.tree().text());
        for d in diagnostics {
            out.push(JsonDiagnostic {
                file: &file.name,
                range: positions.range(d.range),
                severity: d.severity.as_str(),
                code: d.code.code(),
                message: &d.message,
                related: d
                    .related
                    .iter()
                    .map(|r| JsonRelated {
                        file: &file.name,
                        range: positions.range(r.range),
                        message: &r.message,
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

fn write_human(checked: &[(LoadedFile, Vec<Diagnostic>)]) -> std::io::Result<()> {
    let color = std::io::stdout().is_terminal();
    let config = Config::default().with_color(color).with_index_type(IndexType::Byte);
    let mut stdout = std::io::stdout().lock();
    let (mut errors, mut warnings) = (0usize, 0usize);
    for (file, diagnostics) in checked {
        let text = file.parse.tree().text();
        let name = file.name.as_str();
        let mut cache = (name, ariadne::Source::from(text));
        for d in diagnostics {
            let kind = match d.severity {
                Severity::Error => ReportKind::Error,
                Severity::Warning => ReportKind::Warning,
                Severity::Information | Severity::Hint => ReportKind::Advice,
            };
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                _ => {}
            }
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
