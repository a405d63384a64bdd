//! `hsir check [--format human|json] FILE...`.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use ariadne::{Config, IndexType, Label, Report, ReportKind};
use hsir_analysis::{Database, Diagnostic, DiagnosticCode, FileId, Severity, TextRange, TextSize};

use super::pretty_json::PrettyJson;
use crate::position::{Encoding, LineCursor, LineIndex};
use crate::source::SourceText;
use crate::Format;

/// One file's output: its name, its text and what was found in it.
struct Checked<'a> {
    name: &'a str,
    text: &'a str,
    /// What is shown: at most `MAX_SHOWN`, then an HS0007 note for the rest; each with the
    /// offset its ranges count from (`hsir_analysis::Shown`).
    diagnostics: &'a [(&'a Diagnostic, TextSize)],
}

/// The files of one `hsir check`, in the database that analysed them together.
struct Files {
    db: Database,
    /// Each file's id, name and the problem decoding it, if any.
    files: Vec<(FileId, String, Option<Diagnostic>)>,
}

impl Files {
    /// Hands each file's output to `write` in turn, made as it is written: one file's
    /// diagnostics are let go before the next file's are made. Returns the errors and warnings
    /// found in all (shown or not), and the first error `write` returned; after one, the files
    /// left are counted but not written.
    fn each(
        &mut self,
        mut write: impl FnMut(Checked<'_>) -> std::io::Result<()>,
    ) -> ((usize, usize), std::io::Result<()>) {
        let (mut errors, mut warnings) = (0, 0);
        let mut written = Ok(());
        for (id, name, decode_error) in &self.files {
            let sorted = self.db.sorted_diagnostics(*id);
            // The decoding problem first, then the file's diagnostics in order, borrowed.
            let all = decode_error
                .iter()
                .map(|d| (d, TextSize::from(0)))
                .chain(sorted.iter().flat_map(|s| s.iter()));
            for (d, _) in all.clone() {
                match d.severity {
                    Severity::Error => errors += 1,
                    Severity::Warning => warnings += 1,
                    Severity::Information | Severity::Hint => {}
                }
            }
            if written.is_err() {
                continue;
            }
            let shown = hsir_analysis::cap_shown(all);
            let shown: Vec<(&Diagnostic, TextSize)> = shown.iter().collect();
            let text = shown_text(self.db.text(*id).unwrap_or_default(), &shown);
            written = write(Checked { name, text, diagnostics: &shown });
        }
        ((errors, warnings), written)
    }
}
/// The start of `text` up to the end of the last line that a range of `diagnostics` touches.
/// Lines and columns count from the start of the text, so this gives the writers every
/// position and line they show, without indexing (or, for ariadne, copying) the lines after
/// them: on a large file with its first thousand problems near the top, most of it.
fn shown_text<'a>(text: &'a str, diagnostics: &[(&Diagnostic, TextSize)]) -> &'a str {
    let ends =
        diagnostics.iter().flat_map(|&(d, at)| d.ranges().map(move |r| usize::from(r.end() + at)));
    let last = ends.max().unwrap_or(0).min(text.len());
    match memchr::memchr(b'\n', &text.as_bytes()[last..]) {
        Some(at) => &text[..last + at + 1],
        None => text,
    }
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
    // A large check runs again with the allocator tuned for it, before it reads or writes.
    let input_bytes = paths.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len());
    crate::memory::rerun_tuned_for_batch(input_bytes.sum());
    let mut io_failed = false;
    let mut loaded: Vec<SourceText> = Vec::new();
    for path in paths {
        match super::read(path) {
            Ok(file) => loaded.push(file),
            Err(()) => io_failed = true,
        }
    }
    // All files in one database, so that instances resolve across them. The texts move in (a
    // large one is parsed in pieces, never whole); the output reads them back from the
    // database.
    let mut db = Database::new();
    db.set_config(config);
    let mut files: Vec<(FileId, String, Option<Diagnostic>)> = Vec::new();
    for (i, file) in loaded.into_iter().enumerate() {
        let id = FileId(i as u32);
        db.set_text(id, file.text);
        files.push((id, file.name, file.decode_error));
    }
    let mut files = Files { db, files };
    // Written as it is made, through one buffer (stdout alone flushes at every line).
    let mut stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let (errors, written) = match format {
        Format::Human => write_human(&mut files, &mut stdout),
        Format::Json => write_json(&mut files, &mut stdout),
    };
    let written = written.and_then(|()| stdout.flush());
    // The process ends here: freeing every item's diagnostics and summary would only delay it.
    std::mem::forget(files);
    if let Err(err) = written {
        if err.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {err}");
            return super::EXIT_USAGE_OR_IO;
        }
    }
    let has_error = errors > 0;
    if io_failed {
        super::EXIT_USAGE_OR_IO
    } else if has_error {
        1
    } else {
        0
    }
}

/// The diagnostics of every file as one pretty-printed JSON array (serde_json's layout), each
/// element written as its file is checked, through a buffer drained to `out` every 64 KiB.
/// Returns the number of errors and whether the output was written.
fn write_json(files: &mut Files, out: &mut impl Write) -> (usize, std::io::Result<()>) {
    let mut json = PrettyJson::default();
    json.begin_array();
    let ((errors, _), written) = files.each(|Checked { name, text, diagnostics }| {
        json_diagnostics(&mut json, name, text, diagnostics, PARALLEL_JSON_MIN, out)
    });
    let written = written.and_then(|()| {
        json.end_array();
        json.drain_into(out)?;
        writeln!(out)
    });
    (errors, written)
}

/// From how many diagnostics a file's second half is written by a thread of its own (a
/// thousand shown take about 2 ms to write on one).
const PARALLEL_JSON_MIN: usize = 256;

/// The JSON objects of one file's `diagnostics` (in order) as entries of `json`'s array,
/// drained to `out` every 64 KiB; from `parallel_min` diagnostics up, the second half is
/// written by another thread into a buffer of its own, appended after the first.
fn json_diagnostics(
    json: &mut PrettyJson,
    name: &str,
    text: &str,
    diagnostics: &[(&Diagnostic, TextSize)],
    parallel_min: usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    if diagnostics.len() < parallel_min.max(2) {
        return json_objects(json, name, text, diagnostics, Some(out));
    }
    let (head, tail) = diagnostics.split_at(diagnostics.len() / 2);
    let mut later = json.after_an_entry();
    let (head_written, tail_written) = std::thread::scope(|scope| {
        let tail = scope.spawn(|| json_objects(&mut later, name, text, tail, None::<&mut Vec<u8>>));
        let head_written = json_objects(json, name, text, head, Some(&mut *out));
        (head_written, tail.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    head_written?;
    tail_written?;
    json.append(later);
    if json.written().len() >= 1 << 16 {
        json.drain_into(out)?;
    }
    Ok(())
}

/// `json_diagnostics` on one thread, draining to `out` if there is one.
fn json_objects(
    json: &mut PrettyJson,
    name: &str,
    text: &str,
    diagnostics: &[(&Diagnostic, TextSize)],
    mut out: Option<&mut impl Write>,
) -> std::io::Result<()> {
    // The diagnostics come in order: counting lines from one to the next is cheaper than
    // indexing every line before the last.
    let mut lines = LineCursor::new(text);
    let mut range = |json: &mut PrettyJson, key: &str, r: TextRange| {
        let span = lines.range(r, Encoding::Utf16);
        json.object(key);
        for (key, pos) in [("start", span.start), ("end", span.end)] {
            json.object(key);
            json.number("line", pos.line);
            json.number("character", pos.character);
            json.end_object();
        }
        json.end_object();
    };
    for &(d, at) in diagnostics {
        json.begin_object();
        json.string("file", name);
        range(json, "range", d.range + at);
        json.string("severity", d.severity.as_str());
        json.string("code", d.code.code());
        json.string("message", &d.message);
        json.array("related");
        for r in &d.related {
            json.begin_object();
            json.string("file", name);
            range(json, "range", r.range + at);
            json.string("message", &r.message);
            json.end_object();
        }
        json.end_array();
        json.array("fixes");
        for f in &d.fixes {
            json.begin_object();
            json.string("label", &f.label);
            json.array("edits");
            for e in &f.edits {
                json.begin_object();
                range(json, "range", e.range + at);
                json.string("new_text", &e.new_text);
                json.end_object();
            }
            json.end_array();
            json.end_object();
        }
        json.end_array();
        json.end_object();
        if let Some(out) = out.as_deref_mut() {
            if json.written().len() >= 1 << 16 {
                json.drain_into(out)?;
            }
        }
    }
    Ok(())
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

/// Every file's diagnostics drawn under their lines, written as each file is checked, then
/// a summary. Returns the number of errors and whether the output was written.
fn write_human(files: &mut Files, stdout: &mut impl Write) -> (usize, std::io::Result<()>) {
    let color = std::io::stdout().is_terminal();
    let config = Config::default().with_color(color).with_index_type(IndexType::Byte);
    let ((errors, warnings), written) = files.each(|Checked { name, text, diagnostics }| {
        let mut cache = (name, ariadne::Source::from(text));
        let index = LineIndex::new(text);
        let lines = index.view(text);
        for &(d, at) in diagnostics {
            let d_range = d.range + at;
            // ariadne draws the whole line of each label: on a line of 100,000 operands that
            // is most of a second per diagnostic. Such a line is named, not drawn.
            let start = lines.pos(d_range.start(), Encoding::Utf16);
            let long = [d_range.start(), d_range.end()].into_iter().any(|offset| {
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
                    start.line + 1,
                    start.character + 1,
                )?;
                continue;
            }
            let kind = match d.severity {
                Severity::Error => ReportKind::Error,
                Severity::Warning => ReportKind::Warning,
                Severity::Information | Severity::Hint => ReportKind::Advice,
            };
            let span = label_span(text, d_range);
            let mut report = Report::build(kind, (name, span.clone()))
                .with_config(config)
                .with_code(d.code.code())
                .with_message(&d.message)
                .with_label(Label::new((name, span)).with_message(d.code.title()));
            for related in &d.related {
                report = report.with_label(
                    Label::new((name, label_span(text, related.range + at)))
                        .with_message(&related.message),
                );
            }
            report.finish().write(&mut cache, &mut *stdout)?;
        }
        Ok(())
    });
    let files = files.files.len();
    let written = written.and_then(|()| summary(stdout, files, errors, warnings));
    (errors, written)
}

/// The last line of the human format.
fn summary(
    stdout: &mut impl Write,
    files: usize,
    errors: usize,
    warnings: usize,
) -> std::io::Result<()> {
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hsir_analysis::{Fix, TextEdit, TextSize};

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    #[test]
    fn the_shown_text_ends_with_the_last_line_any_range_touches() {
        let text = "line 0\nline 1\nline 2\nline 3\nlast";
        let zero = TextSize::from(0);
        let mut d = Diagnostic::new(DiagnosticCode::UnexpectedToken, range(2, 4), "on line 0");
        assert_eq!(shown_text(text, &[(&d, zero)]), "line 0\n");
        // Ranges count from the offset given with the diagnostic (its item's start).
        assert_eq!(shown_text(text, &[(&d, TextSize::from(14))]), "line 0\nline 1\nline 2\n");
        d = d.with_related(range(8, 9), "on line 1");
        assert_eq!(shown_text(text, &[(&d, zero)]), "line 0\nline 1\n");
        d.fixes.push(Fix {
            label: "edit line 2".into(),
            edits: vec![TextEdit { range: range(14, 20), new_text: String::new() }],
        });
        assert_eq!(shown_text(text, &[(&d, zero)]), "line 0\nline 1\nline 2\n");
        // The last line has no line break: the text is shown whole.
        let at_end =
            Diagnostic::new(DiagnosticCode::UnexpectedToken, range(30, 31), "on the last line");
        assert_eq!(shown_text(text, &[(&d, zero), (&at_end, zero)]), text);
        assert_eq!(shown_text(text, &[]), "line 0\n");
    }

    /// A file's diagnostics written in two halves on two threads give the bytes one thread
    /// gives, whatever the count, for the first file of the array or a later one, on lines
    /// with characters of several bytes and of two UTF-16 units.
    #[test]
    fn diagnostics_written_in_halves_are_the_same_json() {
        let line = "  %x = fork [2] %é𝄞 : i32\n";
        let text = line.repeat(40);
        let at = |n: usize, column: usize| (n * line.len() + column) as u32;
        let found: Vec<Diagnostic> = (0..37)
            .map(|n| {
                let mut d = Diagnostic::new(
                    DiagnosticCode::UnexpectedToken,
                    range(at(n, 2), at(n, 4)),
                    format!("\"quoted\" {n}"),
                );
                if n % 3 == 0 {
                    d = d.with_related(range(at(n + 1, 18), at(n + 1, 24)), "after é𝄞");
                }
                if n % 5 == 0 {
                    d.fixes.push(Fix {
                        label: "rename".into(),
                        edits: vec![TextEdit {
                            range: range(at(n, 2), at(n, 4)),
                            new_text: "%y".into(),
                        }],
                    });
                }
                d
            })
            .collect();
        // Every other one counts its ranges from the start of its line, as an item's do.
        let base = |n: usize| TextSize::from(if n % 2 == 1 { at(n, 0) } else { 0 });
        let relative: Vec<Diagnostic> = found
            .iter()
            .enumerate()
            .map(|(n, d)| {
                let mut d = d.clone();
                d.map_ranges(|r| r - base(n));
                d
            })
            .collect();
        let diagnostics: Vec<(&Diagnostic, TextSize)> =
            relative.iter().enumerate().map(|(n, d)| (d, base(n))).collect();
        let write = |earlier: usize, count: usize, parallel_min: usize| {
            let mut json = PrettyJson::default();
            let mut out = Vec::new();
            json.begin_array();
            json_diagnostics(
                &mut json,
                "a.mlir",
                &text,
                &diagnostics[..earlier],
                usize::MAX,
                &mut out,
            )
            .unwrap();
            json_diagnostics(
                &mut json,
                "b.mlir",
                &text,
                &diagnostics[..count],
                parallel_min,
                &mut out,
            )
            .unwrap();
            json.end_array();
            json.drain_into(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let absolute: Vec<(&Diagnostic, TextSize)> =
            found.iter().map(|d| (d, TextSize::from(0))).collect();
        let mut json = PrettyJson::default();
        let mut expected = Vec::new();
        json.begin_array();
        json_diagnostics(&mut json, "b.mlir", &text, &absolute, usize::MAX, &mut expected).unwrap();
        json.end_array();
        json.drain_into(&mut expected).unwrap();
        assert_eq!(write(0, 37, usize::MAX), String::from_utf8(expected).unwrap(), "offsets");
        for earlier in [0, 3] {
            for count in [0, 1, 2, 3, 10, 37] {
                let one = write(earlier, count, usize::MAX);
                assert_eq!(write(earlier, count, 1), one, "{earlier} earlier, {count} diagnostics");
                let parsed: serde_json::Value = serde_json::from_str(&one).unwrap();
                assert_eq!(parsed.as_array().unwrap().len(), earlier + count);
            }
        }
    }
}
