//! The timing model buffer placement reads: each op's latency and combinational delays, and
//! each buffer type's, from a plain-text file (`backend/data/timing.txt`, embedded; a user may
//! give another). `docs/timing-model.md` describes the format and where the numbers come from.
//!
//! Parsing collects every problem of a file with its line; it never panics on any text.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::OnceLock;

use hsir_analysis::dataflow::{BufferKind, BufferType, Timing};
use hsir_analysis::ops::Dialect;

/// The built-in model's text.
const BUILTIN: &str = include_str!("../../data/timing.txt");

/// The clock period a file that sets none is read with: Dynamatic's default target, in ns.
pub const DEFAULT_PERIOD: f64 = 4.0;

/// CIRCT's two buffer kinds, by the names the file gives them.
const CIRCT_BUFFERS: [&str; 2] = ["seq", "fifo"];

/// The timing of every op and buffer type a file describes.
#[derive(Debug, Clone)]
pub struct TimingModel {
    period: f64,
    overhead: f64,
    fallback: Entry,
    ops: BTreeMap<String, Entry>,
    buffers: BTreeMap<String, Entry>,
}

/// What an op (or a buffer) costs at one width: its latency and its delays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpTiming {
    /// Cycles from input to output on the data (and valid) path.
    pub latency: u32,
    /// Combinational delay in ns from input to output, per signal: the op's own delay at the
    /// asked width. For a pipelined op this is what remains once registers cut the path.
    pub data: f64,
    pub valid: f64,
    pub ready: f64,
    /// Pin-to-pin delays between signals of different kinds, in ns, as FPL22 uses them:
    /// valid to ready, condition to valid, condition to ready, valid to condition, valid to
    /// data.
    pub valid_to_ready: f64,
    pub cond_to_valid: f64,
    pub cond_to_ready: f64,
    pub valid_to_cond: f64,
    pub valid_to_data: f64,
    /// Delay from the input ports to the first register, and from the last register to the
    /// output ports. Zero for an op with no latency.
    pub in_port: PortDelays,
    pub out_port: PortDelays,
}

/// Port-to-register delays in ns, per signal.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PortDelays {
    pub data: f64,
    pub valid: f64,
    pub ready: f64,
}

/// One problem in a timing file.
#[derive(Debug, Clone, PartialEq)]
pub struct TimingFileError {
    /// 1-based.
    pub line: u32,
    pub message: String,
}

impl fmt::Display for TimingFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TimingFileError {}

/// The name a section is filed under for an op name as written: the Handshake and arith
/// dialects' prefixes are dropped (`arith.addi` and `handshake.addi` are both `addi`); other
/// names, such as LOOM's `dataflow.stream`, stay whole. The file's sections are data: no op
/// name is written here.
pub fn op_key(name: &str) -> &str {
    [Dialect::Handshake, Dialect::Arith]
        .iter()
        .find_map(|d| name.strip_prefix(d.prefix()))
        .unwrap_or(name)
}

impl TimingModel {
    /// The model of `backend/data/timing.txt`, parsed once.
    pub fn builtin() -> &'static TimingModel {
        static MODEL: OnceLock<TimingModel> = OnceLock::new();
        MODEL.get_or_init(|| match TimingModel::parse(BUILTIN) {
            Ok(model) => model,
            // The embedded file is part of the program and its tests parse it.
            Err(errors) => panic!("the built-in timing model does not parse: {errors:?}"),
        })
    }

    /// The built-in file's text, for users who start their own file from it.
    pub fn builtin_text() -> &'static str {
        BUILTIN
    }

    /// Reads a timing file; every problem is reported, each with its line.
    pub fn parse(text: &str) -> Result<TimingModel, Vec<TimingFileError>> {
        Parser::default().run(text)
    }

    /// The clock period (ns) that picks among implementations of one op.
    pub fn period(&self) -> f64 {
        self.period
    }

    /// The register-to-register overhead (ns) every characterized delay includes: clock to
    /// output, setup, the characterization harness's routing. A combinational path of units
    /// `u1..un` between two registers costs `overhead + Σ max(0, d_i − overhead)` (`path`), so
    /// one unit alone costs its characterized delay. 0 (the plain sum) when the file sets none.
    pub fn overhead(&self) -> f64 {
        self.overhead
    }

    /// The same model with another overhead (ns, at least 0): what the calibration compares.
    pub fn with_overhead(&self, overhead: f64) -> TimingModel {
        TimingModel { overhead: overhead.max(0.0), ..self.clone() }
    }

    /// What a unit of characterized delay `delay` adds to a path beyond the one overhead the
    /// path pays: `max(0, delay − overhead)`.
    pub fn excess(&self, delay: f64) -> f64 {
        excess(delay, self.overhead)
    }

    /// The cost of a register-to-register path through units of characterized delays
    /// `delays`: `overhead + Σ max(0, d − overhead)`, the plain sum when the overhead is 0.
    pub fn path(&self, delays: impl IntoIterator<Item = f64>) -> f64 {
        self.overhead + delays.into_iter().map(|d| self.excess(d)).sum::<f64>()
    }

    /// The timing of the op `name` (with or without its dialect) at `width` bits, at the
    /// file's clock period; `None` when the file has no section for it.
    pub fn op(&self, name: &str, width: u32) -> Option<OpTiming> {
        self.op_at_period(name, width, self.period)
    }

    /// As `op`, choosing among implementations for the clock period `period` (ns).
    pub fn op_at_period(&self, name: &str, width: u32, period: f64) -> Option<OpTiming> {
        let entry = self.ops.get(op_key(name))?;
        Some(entry.timing(width, period, true))
    }

    /// Where the numbers of the op's section come from (`from`, `assumption`, or both).
    pub fn source(&self, name: &str) -> Option<&str> {
        self.ops.get(op_key(name)).map(|entry| entry.source.as_str())
    }

    /// The names of the ops the file has sections for, in order.
    pub fn op_names(&self) -> impl Iterator<Item = &str> {
        self.ops.keys().map(String::as_str)
    }

    /// What an op with no section is taken to cost (the `[fallback]` section, at its widest
    /// listed width).
    pub fn fallback(&self) -> OpTiming {
        self.fallback.timing(u32::MAX, self.period, true)
    }

    /// Where the fallback's numbers come from.
    pub fn fallback_source(&self) -> &str {
        &self.fallback.source
    }

    /// The timing of one buffer of type `ty` on a channel of `width` bits. Its `latency` is
    /// that of data and valid; `buffer_latencies` gives ready's too. Port delays are given
    /// whether or not the type registers the data path.
    pub fn buffer(&self, ty: BufferType, width: u32) -> OpTiming {
        match self.buffers.get(ty.name()) {
            Some(entry) => entry.timing(width, self.period, false),
            // `parse` refuses a file without all six types.
            None => self.fallback(),
        }
    }

    /// The latencies of a buffer type on data, valid and ready, as the file states them
    /// (`parse` checked them against `BufferType::timing`).
    pub fn buffer_latencies(&self, ty: BufferType) -> Timing {
        match self.buffers.get(ty.name()) {
            Some(entry) => entry.latencies(),
            None => ty.timing(),
        }
    }

    /// The timing of a buffer as the analysis reads its kind: one of the six types (by any
    /// name) or CIRCT's `seq` / `fifo`; `None` for an unknown or missing type, and for a CIRCT
    /// kind the file does not describe.
    pub fn buffer_kind(&self, kind: &BufferKind, width: u32) -> Option<OpTiming> {
        let name = match kind {
            BufferKind::Known(ty) | BufferKind::Legacy(ty, _) | BufferKind::Implied(ty) => {
                ty.name()
            }
            BufferKind::CirctSeq => "seq",
            BufferKind::CirctFifo => "fifo",
            BufferKind::Unknown(_) | BufferKind::Missing => return None,
        };
        self.buffers.get(name).map(|entry| entry.timing(width, self.period, false))
    }

    /// The latencies of a buffer kind on data, valid and ready; `None` as for `buffer_kind`.
    pub fn buffer_kind_latencies(&self, kind: &BufferKind) -> Option<Timing> {
        let name = match kind {
            BufferKind::Known(ty) | BufferKind::Legacy(ty, _) | BufferKind::Implied(ty) => {
                ty.name()
            }
            BufferKind::CirctSeq => "seq",
            BufferKind::CirctFifo => "fifo",
            BufferKind::Unknown(_) | BufferKind::Missing => return None,
        };
        self.buffers.get(name).map(Entry::latencies)
    }
}

/// What a characterized delay adds to a register-to-register path beyond its one `overhead`.
pub fn excess(delay: f64, overhead: f64) -> f64 {
    if overhead <= 0.0 {
        delay
    } else {
        (delay - overhead).max(0.0)
    }
}

/// A value given for every width, or by width (ascending, never empty).
#[derive(Debug, Clone, PartialEq)]
enum ByWidth<T> {
    All(T),
    Widths(Vec<(u32, T)>),
}

impl<T> ByWidth<T> {
    /// The value at the smallest listed width not below `width`, else at the largest.
    fn at(&self, width: u32) -> Option<&T> {
        match self {
            ByWidth::All(value) => Some(value),
            ByWidth::Widths(points) => points
                .iter()
                .find(|(listed, _)| *listed >= width)
                .or_else(|| points.last())
                .map(|(_, value)| value),
        }
    }
}

impl ByWidth<f64> {
    fn delay_at(&self, width: u32) -> f64 {
        self.at(width).copied().unwrap_or(0.0)
    }
}

/// One implementation of an op at one width: its latency, and its internal register-to-
/// register delay when the width has several implementations to choose from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Implementation {
    cycles: u32,
    delay: Option<f64>,
}

/// The implementation a clock period picks: the slowest whose internal delay fits the period
/// (it needs the fewest cycles), or the fastest when none fits (as Dynamatic picks).
fn choose(implementations: &[Implementation], period: f64) -> u32 {
    let delay = |it: &Implementation| it.delay.unwrap_or(0.0);
    let fitting = implementations
        .iter()
        .filter(|it| delay(it) <= period)
        .max_by(|a, b| delay(a).total_cmp(&delay(b)));
    let chosen =
        fitting.or_else(|| implementations.iter().min_by(|a, b| delay(a).total_cmp(&delay(b))));
    chosen.map_or(0, |it| it.cycles)
}

/// A section after `like` was applied and its required fields checked.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    source: String,
    latency: ByWidth<Vec<Implementation>>,
    ready_latency: u32,
    data: ByWidth<f64>,
    valid: f64,
    ready: f64,
    pins: [f64; 5],
    in_data: ByWidth<f64>,
    in_valid: f64,
    in_ready: f64,
    out_data: ByWidth<f64>,
    out_valid: f64,
    out_ready: f64,
}

impl Entry {
    /// `zero_ports_without_latency`: an op with no latency has no registers, so no port
    /// delays; a buffer that breaks only ready still has them.
    fn timing(&self, width: u32, period: f64, zero_ports_without_latency: bool) -> OpTiming {
        let latency = self.latency.at(width).map_or(0, |impls| choose(impls, period));
        let registered = latency > 0 || !zero_ports_without_latency;
        let port = |data: &ByWidth<f64>, valid: f64, ready: f64| {
            if registered {
                PortDelays { data: data.delay_at(width), valid, ready }
            } else {
                PortDelays::default()
            }
        };
        let [vr, cv, cr, vc, vd] = self.pins;
        OpTiming {
            latency,
            data: self.data.delay_at(width),
            valid: self.valid,
            ready: self.ready,
            valid_to_ready: vr,
            cond_to_valid: cv,
            cond_to_ready: cr,
            valid_to_cond: vc,
            valid_to_data: vd,
            in_port: port(&self.in_data, self.in_valid, self.in_ready),
            out_port: port(&self.out_data, self.out_valid, self.out_ready),
        }
    }

    /// A buffer's latencies; a buffer's `latency` is one number for every width.
    fn latencies(&self) -> Timing {
        let d = self.latency.at(1).map_or(0, |impls| choose(impls, 0.0));
        Timing { d, v: d, r: self.ready_latency }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing.

/// The fields of a section, by their names in the file.
const FIELDS: &[&str] = &[
    "from",
    "assumption",
    "like",
    "latency",
    "ready-latency",
    "data",
    "valid",
    "ready",
    "VR",
    "CV",
    "CR",
    "VC",
    "VD",
    "in.data",
    "in.valid",
    "in.ready",
    "out.data",
    "out.valid",
    "out.ready",
];

/// The pin-to-pin fields, in `Entry::pins` order.
const PINS: [&str; 5] = ["VR", "CV", "CR", "VC", "VD"];

/// Settings, written before the first section.
const SETTINGS: &[&str] = &["period", "overhead"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Fallback,
    Op,
    Buffer,
    /// A header that did not read; `name` is its text as written.
    Unread,
}

/// A section's header: `[fallback]`, `[op NAME]`, `[buffer TYPE]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Header {
    kind: Kind,
    name: String,
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Fallback => write!(f, "[fallback]"),
            Kind::Op => write!(f, "[op {}]", self.name),
            Kind::Buffer => write!(f, "[buffer {}]", self.name),
            Kind::Unread => write!(f, "{}", self.name),
        }
    }
}

/// A section's fields as read, each `None` until given.
#[derive(Debug, Clone, Default)]
struct Fields {
    from: Option<String>,
    assumption: Option<String>,
    like: Option<(String, u32)>,
    latency: Option<ByWidth<Vec<Implementation>>>,
    ready_latency: Option<u32>,
    data: Option<ByWidth<f64>>,
    valid: Option<f64>,
    ready: Option<f64>,
    pins: [Option<f64>; 5],
    in_data: Option<ByWidth<f64>>,
    in_valid: Option<f64>,
    in_ready: Option<f64>,
    out_data: Option<ByWidth<f64>>,
    out_valid: Option<f64>,
    out_ready: Option<f64>,
}

impl Fields {
    /// Takes every number this section does not give from `base` (what `like` does). The
    /// source is the section's own.
    fn inherit(&mut self, base: &Fields) {
        fn take<T: Clone>(mine: &mut Option<T>, theirs: &Option<T>) {
            if mine.is_none() {
                mine.clone_from(theirs);
            }
        }
        take(&mut self.latency, &base.latency);
        take(&mut self.ready_latency, &base.ready_latency);
        take(&mut self.data, &base.data);
        take(&mut self.valid, &base.valid);
        take(&mut self.ready, &base.ready);
        for (mine, theirs) in self.pins.iter_mut().zip(&base.pins) {
            take(mine, theirs);
        }
        take(&mut self.in_data, &base.in_data);
        take(&mut self.in_valid, &base.in_valid);
        take(&mut self.in_ready, &base.in_ready);
        take(&mut self.out_data, &base.out_data);
        take(&mut self.out_valid, &base.out_valid);
        take(&mut self.out_ready, &base.out_ready);
    }
}

/// A section being read.
#[derive(Debug, Clone)]
struct Section {
    header: Header,
    line: u32,
    fields: Fields,
    /// Where each field was given.
    given: BTreeMap<&'static str, u32>,
    /// Fields given with a value that did not read (already reported), so that they are not
    /// also reported missing.
    broken: BTreeSet<&'static str>,
    /// Whether the section is kept (a duplicate or a bad header is read for its errors only).
    keep: bool,
}

#[derive(Default)]
struct Parser {
    errors: Vec<TimingFileError>,
    period: Option<(f64, u32)>,
    overhead: Option<(f64, u32)>,
    sections: Vec<Section>,
    /// The first line of each header, for duplicates.
    seen: BTreeMap<Header, u32>,
}

impl Parser {
    fn error(&mut self, line: u32, message: String) {
        self.errors.push(TimingFileError { line, message });
    }

    fn run(mut self, text: &str) -> Result<TimingModel, Vec<TimingFileError>> {
        let mut last_line = 1;
        for (index, raw) in text.lines().enumerate() {
            let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
            last_line = line;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            if let Some(rest) = content.strip_prefix('[') {
                self.header(line, rest);
            } else if let Some((key, value)) = content.split_once('=') {
                self.field(line, key.trim(), value.trim());
            } else {
                self.error(
                    line,
                    format!("expected `field = value` or a `[section]` header, found `{content}`"),
                );
            }
        }
        let model = self.finish(last_line);
        let mut errors = self.errors;
        if errors.is_empty() {
            if let Some(model) = model {
                return Ok(model);
            }
        }
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }

    fn header(&mut self, line: u32, rest: &str) {
        // A bad header still opens a section (not kept), so that the errors of its fields are
        // reported and named after it.
        let placeholder = Header { kind: Kind::Unread, name: format!("[{rest}") };
        let push = |parser: &mut Parser, header: Header, keep: bool| {
            parser.sections.push(Section {
                header,
                line,
                fields: Fields::default(),
                given: BTreeMap::new(),
                broken: BTreeSet::new(),
                keep,
            });
        };
        let Some(inner) = rest.strip_suffix(']') else {
            self.error(line, format!("section header `[{rest}` has no closing `]`"));
            push(self, placeholder, false);
            return;
        };
        let words: Vec<&str> = inner.split_whitespace().collect();
        let header = match words.as_slice() {
            ["fallback"] => Header { kind: Kind::Fallback, name: String::new() },
            ["op", name] => Header { kind: Kind::Op, name: op_key(name).to_string() },
            ["buffer", name] => {
                let known = BufferType::from_name(name).is_some() || CIRCT_BUFFERS.contains(name);
                if !known {
                    let mut names: Vec<&str> = BufferType::ALL.iter().map(|t| t.name()).collect();
                    names.extend(CIRCT_BUFFERS);
                    self.error(
                        line,
                        format!(
                            "unknown buffer type `{name}` in `[{inner}]` (types: {})",
                            names.join(", ")
                        ),
                    );
                    push(self, Header { kind: Kind::Buffer, name: name.to_string() }, false);
                    return;
                }
                Header { kind: Kind::Buffer, name: name.to_string() }
            }
            _ => {
                self.error(
                    line,
                    format!(
                        "unknown section `[{inner}]`: sections are `[fallback]`, `[op NAME]` and `[buffer TYPE]`"
                    ),
                );
                push(self, placeholder, false);
                return;
            }
        };
        if let Some(&first) = self.seen.get(&header) {
            self.error(line, format!("`{header}` is defined twice (first on line {first})"));
            push(self, header, false);
            return;
        }
        self.seen.insert(header.clone(), line);
        push(self, header, true);
    }

    fn field(&mut self, line: u32, key: &str, value: &str) {
        if self.sections.is_empty() {
            self.setting(line, key, value);
            return;
        }
        let at = self.sections.len() - 1;
        let header = self.sections[at].header.clone();
        let Some(&key) = FIELDS.iter().find(|&&f| f == key) else {
            let message = if SETTINGS.contains(&key) {
                format!("`{key}` is a setting: it goes before the first section, not in `{header}`")
            } else if let Some(field) = FIELDS.iter().find(|f| f.eq_ignore_ascii_case(key)) {
                format!("unknown field `{key}` in `{header}`: fields are case-sensitive, did you mean `{field}`?")
            } else {
                format!("unknown field `{key}` in `{header}` (fields: {})", FIELDS.join(", "))
            };
            self.error(line, message);
            return;
        };
        if key == "ready-latency" && !matches!(header.kind, Kind::Buffer | Kind::Unread) {
            self.error(
                line,
                format!("`ready-latency` is a buffer field, and `{header}` is no buffer"),
            );
            return;
        }
        if key == "like" && header.kind == Kind::Fallback {
            self.error(line, "`[fallback]` cannot use `like`: write its numbers".to_string());
            return;
        }
        if let Some(&first) = self.sections[at].given.get(key) {
            self.error(
                line,
                format!("`{key}` is given twice in `{header}` (first on line {first})"),
            );
            return;
        }
        self.sections[at].given.insert(key, line);
        if value.is_empty() {
            self.error(line, format!("`{key}` in `{header}` has no value"));
            self.sections[at].broken.insert(key);
            return;
        }
        let context = format!("`{key}` of `{header}`");
        match self.read_field(&context, at, key, value) {
            Ok(()) if key == "like" => {
                let name = op_key(value).to_string();
                self.sections[at].fields.like = Some((name, line));
            }
            Ok(()) => {}
            Err(message) => {
                self.error(line, message);
                self.sections[at].broken.insert(key);
            }
        }
    }

    /// Stores one field's value in the current section; `Err` names what is wrong with it.
    fn read_field(
        &mut self,
        context: &str,
        at: usize,
        key: &'static str,
        value: &str,
    ) -> Result<(), String> {
        let fields = &mut self.sections[at].fields;
        match key {
            "from" => fields.from = Some(value.to_string()),
            "assumption" => fields.assumption = Some(value.to_string()),
            "like" => {
                if value.split_whitespace().count() != 1 {
                    return Err(format!("{context} names one section, not `{value}`"));
                }
            }
            "latency" => fields.latency = Some(latency_list(context, value)?),
            "ready-latency" => fields.ready_latency = Some(count(context, value)?),
            "data" => fields.data = Some(delay_list(context, value)?),
            "valid" => fields.valid = Some(delay(context, value)?),
            "ready" => fields.ready = Some(delay(context, value)?),
            "in.data" => fields.in_data = Some(delay_list(context, value)?),
            "in.valid" => fields.in_valid = Some(delay(context, value)?),
            "in.ready" => fields.in_ready = Some(delay(context, value)?),
            "out.data" => fields.out_data = Some(delay_list(context, value)?),
            "out.valid" => fields.out_valid = Some(delay(context, value)?),
            "out.ready" => fields.out_ready = Some(delay(context, value)?),
            pin => {
                if let Some(index) = PINS.iter().position(|&p| p == pin) {
                    fields.pins[index] = Some(delay(context, value)?);
                }
            }
        }
        Ok(())
    }

    fn setting(&mut self, line: u32, key: &str, value: &str) {
        match key {
            "period" => {
                if let Some((_, first)) = self.period {
                    self.error(line, format!("`period` is set twice (first on line {first})"));
                    return;
                }
                match delay("`period`", value) {
                    Ok(period) if period > 0.0 => self.period = Some((period, line)),
                    Ok(_) => self.error(line, "`period` must be more than 0 ns".to_string()),
                    Err(message) => self.error(line, message),
                }
            }
            "overhead" => {
                if let Some((_, first)) = self.overhead {
                    self.error(line, format!("`overhead` is set twice (first on line {first})"));
                    return;
                }
                match delay("`overhead`", value) {
                    Ok(overhead) => self.overhead = Some((overhead, line)),
                    Err(message) => self.error(line, message),
                }
            }
            _ if FIELDS.contains(&key) => self.error(
                line,
                format!("`{key}` outside any section: settings come first (`period`, `overhead`), then sections such as `[op addi]`"),
            ),
            _ => self.error(line, format!("unknown setting `{key}` (settings: period, overhead)")),
        }
    }

    /// Applies `like`, checks what every section needs, and builds the model when all is well.
    fn finish(&mut self, last_line: u32) -> Option<TimingModel> {
        let sections: Vec<Section> = self.sections.drain(..).filter(|s| s.keep).collect();
        let index: BTreeMap<&Header, usize> =
            sections.iter().enumerate().map(|(i, s)| (&s.header, i)).collect();

        let mut resolved: Vec<Option<Fields>> = vec![None; sections.len()];
        let mut failed = vec![false; sections.len()];
        for start in 0..sections.len() {
            self.resolve(&sections, &index, start, &mut resolved, &mut failed);
        }

        let mut fallback = None;
        let mut ops = BTreeMap::new();
        let mut buffers = BTreeMap::new();
        for (i, section) in sections.iter().enumerate() {
            let Some(fields) = resolved[i].take() else { continue };
            let Some(entry) = self.entry(section, fields) else { continue };
            match section.header.kind {
                Kind::Fallback => fallback = Some(entry),
                Kind::Op => {
                    ops.insert(section.header.name.clone(), entry);
                }
                Kind::Buffer => {
                    buffers.insert(section.header.name.clone(), entry);
                }
                // Sections with bad headers are dropped before this.
                Kind::Unread => {}
            }
        }

        let has = |header: Header| index.contains_key(&header);
        if !has(Header { kind: Kind::Fallback, name: String::new() }) {
            self.error(
                last_line,
                "the file has no `[fallback]` section (what an op without a section costs)"
                    .to_string(),
            );
        }
        for ty in BufferType::ALL {
            if !has(Header { kind: Kind::Buffer, name: ty.name().to_string() }) {
                self.error(last_line, format!("the file has no `[buffer {}]` section", ty.name()));
            }
        }
        let period = self.period.map_or(DEFAULT_PERIOD, |(p, _)| p);
        let overhead = self.overhead.map_or(0.0, |(o, _)| o);
        if let Some((o, line)) = self.overhead {
            if o >= period {
                self.error(
                    line,
                    format!(
                        "`overhead` ({o} ns) must be less than the period ({period} ns): every register-to-register path pays it once"
                    ),
                );
                return None;
            }
        }
        Some(TimingModel { period, overhead, fallback: fallback?, ops, buffers })
    }

    /// The fields of section `at` with its `like` chain applied; `None` when the chain is
    /// broken (reported once, on the line of the `like` that breaks it).
    fn resolve(
        &mut self,
        sections: &[Section],
        index: &BTreeMap<&Header, usize>,
        start: usize,
        resolved: &mut [Option<Fields>],
        failed: &mut [bool],
    ) {
        // Walk the chain from `start` until a resolved, failed or base section, then fill the
        // walked sections in from the end. A section met twice closes a loop.
        let mut chain: Vec<usize> = Vec::new();
        let mut at = start;
        let mut broken = false;
        loop {
            if resolved[at].is_some() || failed[at] {
                broken = failed[at];
                break;
            }
            if chain.contains(&at) {
                let section = &sections[at];
                let line = section.fields.like.as_ref().map_or(section.line, |(_, l)| *l);
                let names: Vec<String> = chain
                    .iter()
                    .skip_while(|&&i| i != at)
                    .chain(std::iter::once(&at))
                    .map(|&i| format!("`{}`", sections[i].header))
                    .collect();
                self.error(line, format!("`like` goes round in a loop: {}", names.join(" -> ")));
                broken = true;
                break;
            }
            chain.push(at);
            let section = &sections[at];
            let Some((name, line)) = &section.fields.like else { break };
            let target = Header { kind: section.header.kind, name: name.clone() };
            match index.get(&target) {
                Some(&next) => at = next,
                None => {
                    self.error(
                        *line,
                        format!("`like = {name}` in `{}`: there is no `{target}`", section.header),
                    );
                    broken = true;
                    break;
                }
            }
        }
        if broken {
            for i in chain {
                failed[i] = true;
            }
            return;
        }
        // The last of the chain is resolved already or has no `like`.
        let mut base: Option<Fields> = None;
        if let Some(&last) = chain.last() {
            if let Some(done) = resolved[last].clone() {
                base = Some(done);
            } else if let Some((name, _)) = &sections[last].fields.like {
                // Its target was resolved before this walk.
                let target = Header { kind: sections[last].header.kind, name: name.clone() };
                base = index.get(&target).and_then(|&t| resolved[t].clone());
            }
        }
        for &i in chain.iter().rev() {
            if resolved[i].is_some() {
                base = resolved[i].clone();
                continue;
            }
            let mut fields = sections[i].fields.clone();
            if fields.like.is_some() {
                if let Some(base) = &base {
                    fields.inherit(base);
                }
            }
            resolved[i] = Some(fields.clone());
            base = Some(fields);
        }
    }

    /// A resolved section as an entry, or `None` after reporting what it lacks.
    fn entry(&mut self, section: &Section, fields: Fields) -> Option<Entry> {
        let header = &section.header;
        let line = section.line;
        let mut complete = true;
        let source = match (&fields.from, &fields.assumption) {
            (Some(from), Some(why)) => format!("{from}; assumption: {why}"),
            (Some(from), None) => from.clone(),
            (None, Some(why)) => format!("assumption: {why}"),
            (None, None) => {
                if !section.broken.contains("from") && !section.broken.contains("assumption") {
                    self.error(
                        line,
                        format!(
                            "`{header}` names no source: give `from` (where its numbers were read) or `assumption` (why they are what they are)"
                        ),
                    );
                }
                complete = false;
                String::new()
            }
        };
        let mut require = |parser: &mut Parser, present: bool, key: &'static str| {
            if !present {
                complete = false;
                if !section.broken.contains(key) {
                    let via = if fields.like.is_some() {
                        " (nor does the section it is like)"
                    } else {
                        ""
                    };
                    parser.error(line, format!("`{header}` has no `{key}`{via}"));
                }
            }
        };
        require(self, fields.latency.is_some(), "latency");
        require(self, fields.data.is_some(), "data");
        require(self, fields.valid.is_some(), "valid");
        require(self, fields.ready.is_some(), "ready");
        if !complete || !section.broken.is_empty() {
            return None;
        }
        let entry = Entry {
            source,
            latency: fields.latency?,
            ready_latency: fields.ready_latency.unwrap_or(0),
            data: fields.data?,
            valid: fields.valid?,
            ready: fields.ready?,
            pins: fields.pins.map(|p| p.unwrap_or(0.0)),
            in_data: fields.in_data.unwrap_or(ByWidth::All(0.0)),
            in_valid: fields.in_valid.unwrap_or(0.0),
            in_ready: fields.in_ready.unwrap_or(0.0),
            out_data: fields.out_data.unwrap_or(ByWidth::All(0.0)),
            out_valid: fields.out_valid.unwrap_or(0.0),
            out_ready: fields.out_ready.unwrap_or(0.0),
        };
        if header.kind == Kind::Buffer {
            let latency_line = section.given.get("latency").copied().unwrap_or(line);
            let ByWidth::All(impls) = &entry.latency else {
                self.error(
                    latency_line,
                    format!("the `latency` of `{header}` is one number, not one per width"),
                );
                return None;
            };
            if impls.len() != 1 || impls[0].delay.is_some() {
                self.error(
                    latency_line,
                    format!(
                        "the `latency` of `{header}` is one number, not a list of implementations"
                    ),
                );
                return None;
            }
            if let Some(ty) = BufferType::from_name(&header.name) {
                let expected = ty.timing();
                let written = entry.latencies();
                if written != expected {
                    self.error(
                        latency_line,
                        format!(
                            "`{header}` has latency {} and ready-latency {}, but the type is defined with D: {}, V: {}, R: {} (seed 000)",
                            written.d, written.r, expected.d, expected.v, expected.r
                        ),
                    );
                    return None;
                }
            }
        }
        Some(entry)
    }
}

// ---------------------------------------------------------------------------------------------
// Values.

/// Whether `text` is a plain decimal: digits, optionally a point and more digits.
fn is_decimal(text: &str) -> bool {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && fraction.is_none_or(digits)
}

/// A delay in ns: a non-negative decimal.
fn delay(context: &str, text: &str) -> Result<f64, String> {
    if let Some(magnitude) = text.strip_prefix('-') {
        if is_decimal(magnitude) {
            return Err(format!("negative delay `{text}` in {context}"));
        }
    }
    if !is_decimal(text) {
        return Err(format!(
            "`{text}` in {context} is not a delay (a number of ns, such as 1.125)"
        ));
    }
    text.parse::<f64>()
        .ok()
        .filter(|d| d.is_finite())
        .ok_or_else(|| format!("`{text}` in {context} is too large a delay"))
}

/// A whole number of cycles.
fn count(context: &str, text: &str) -> Result<u32, String> {
    if text.starts_with('-') && text[1..].bytes().all(|b| b.is_ascii_digit()) && text.len() > 1 {
        return Err(format!("negative latency `{text}` in {context}"));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` in {context} is not a latency (a whole number of cycles)"));
    }
    text.parse::<u32>().map_err(|_| format!("`{text}` in {context} is too many cycles"))
}

/// A width in bits: a whole number, 1 or more.
fn width(context: &str, text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err(format!("width `0` in {context}: widths are 1 bit or more")),
        Ok(w) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(w),
        _ => Err(format!("`{text}` in {context} is not a width (a whole number of bits)")),
    }
}

/// `D` for every width, or `W:D ...` by width.
fn delay_list(context: &str, text: &str) -> Result<ByWidth<f64>, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if let [single] = tokens.as_slice() {
        if !single.contains(':') {
            return Ok(ByWidth::All(delay(context, single)?));
        }
    }
    let mut points: Vec<(u32, f64)> = Vec::new();
    for token in tokens {
        let Some((w, d)) = token.split_once(':') else {
            return Err(format!(
                "`{token}` in {context}: a list by width is written `WIDTH:DELAY ...`, and a single value alone"
            ));
        };
        let w = width(context, w)?;
        let d = delay(context, d)?;
        if points.iter().any(|(listed, _)| *listed == w) {
            return Err(format!("width {w} is listed twice in {context}"));
        }
        points.push((w, d));
    }
    points.sort_by_key(|(w, _)| *w);
    Ok(ByWidth::Widths(points))
}

/// `N` for every width, `W:N ...` by width, with `@D` after `N` for one of several
/// implementations of a width.
fn latency_list(context: &str, text: &str) -> Result<ByWidth<Vec<Implementation>>, String> {
    let mut every: Vec<Implementation> = Vec::new();
    let mut by_width: BTreeMap<u32, Vec<Implementation>> = BTreeMap::new();
    for token in text.split_whitespace() {
        let (w, rest) = match token.split_once(':') {
            Some((w, rest)) => (Some(width(context, w)?), rest),
            None => (None, token),
        };
        let implementation = match rest.split_once('@') {
            Some((cycles, d)) => {
                Implementation { cycles: count(context, cycles)?, delay: Some(delay(context, d)?) }
            }
            None => Implementation { cycles: count(context, rest)?, delay: None },
        };
        match w {
            Some(w) => by_width.entry(w).or_default().push(implementation),
            None => every.push(implementation),
        }
    }
    if !every.is_empty() && !by_width.is_empty() {
        return Err(format!("{context} mixes a latency for every width with latencies by width"));
    }
    let check = |which: String, impls: &[Implementation]| -> Result<(), String> {
        if impls.len() > 1 {
            if impls.iter().any(|it| it.delay.is_none()) {
                return Err(format!(
                    "{context} lists several latencies for {which}: give each its internal delay (`CYCLES@DELAY`)"
                ));
            }
            for (i, a) in impls.iter().enumerate() {
                if impls[..i].iter().any(|b| b.delay == a.delay) {
                    return Err(format!(
                        "{context} lists two implementations for {which} with the same delay"
                    ));
                }
            }
        }
        Ok(())
    };
    if by_width.is_empty() {
        check("every width".to_string(), &every)?;
        return Ok(ByWidth::All(every));
    }
    for (w, impls) in &by_width {
        check(format!("width {w}"), impls)?;
    }
    Ok(ByWidth::Widths(by_width.into_iter().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix;

    /// Random edits of the built-in file (lines dropped, doubled, cut, or with a character
    /// replaced) never make the parser panic, and every error it reports names a line of the
    /// text.
    #[test]
    fn random_edits_never_panic() {
        let lines: Vec<&str> = BUILTIN.lines().collect();
        let junk = ['-', ':', '@', '=', '[', ']', '#', ' ', 'x', '0', '9', '.', 'é'];
        let mut random = SplitMix(0x7157);
        let mut reported = 0;
        for _ in 0..300 {
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for _ in 0..1 + random.between(0, 3) {
                let at = random.between(0, edited.len() as i64 - 1) as usize;
                match random.between(0, 3) {
                    0 => {
                        edited.remove(at);
                    }
                    1 => edited.insert(at, edited[at].clone()),
                    2 => {
                        let cut = random.between(0, edited[at].chars().count() as i64) as usize;
                        edited[at] = edited[at].chars().take(cut).collect();
                    }
                    _ => {
                        let mut chars: Vec<char> = edited[at].chars().collect();
                        if !chars.is_empty() {
                            let c = random.between(0, chars.len() as i64 - 1) as usize;
                            chars[c] = junk[random.between(0, junk.len() as i64 - 1) as usize];
                        }
                        edited[at] = chars.into_iter().collect();
                    }
                }
            }
            let text = edited.join("\n");
            let line_count = text.lines().count().max(1) as u32;
            if let Err(errors) = TimingModel::parse(&text) {
                reported += 1;
                assert!(!errors.is_empty());
                for error in &errors {
                    assert!(
                        (1..=line_count).contains(&error.line),
                        "{error} is outside the {line_count} lines of the text"
                    );
                    assert!(!error.message.is_empty());
                }
            }
        }
        // Most edits break something; the test would be empty if none did.
        assert!(reported > 100, "only {reported} of 300 edited files were refused");
    }

    #[test]
    fn implementations_are_chosen_by_period() {
        let impls = [
            Implementation { cycles: 36, delay: Some(2.798) },
            Implementation { cycles: 10, delay: Some(2.922) },
            Implementation { cycles: 6, delay: Some(3.649333) },
        ];
        assert_eq!(choose(&impls, 4.0), 6);
        assert_eq!(choose(&impls, 3.0), 10);
        assert_eq!(choose(&impls, 2.9), 36);
        // None fits: the fastest.
        assert_eq!(choose(&impls, 1.0), 36);
        assert_eq!(choose(&[Implementation { cycles: 4, delay: None }], 0.5), 4);
    }
}
