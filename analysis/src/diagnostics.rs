//! Diagnostics: codes, severities, messages, related notes and fixes, as plain data.
//!
//! Every code is listed once in `DiagnosticCode`, and its code string, default severity and
//! title are exhaustive matches below, so adding a code forces a decision on each. Codes are
//! stable and never reused: `HS0xxx` syntax, `HS1xxx` types and structure, `HS2xxx` dataflow
//! graph and buffers, `HS3xxx` ctrl-done and memory, `HS4xxx` pipelines, `HS5xxx` backend.

use hsir_parser::{TextRange, TextSize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severity {
    /// The LSP name, also used by `hsir check --format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
            Severity::Hint => "hint",
        }
    }

    /// Reads a level as settings and `--severity` write it: a severity, or `off` (`None`).
    pub fn parse_level(level: &str) -> Option<Option<Severity>> {
        match level.trim() {
            "error" => Some(Some(Severity::Error)),
            "warning" => Some(Some(Severity::Warning)),
            "information" | "info" => Some(Some(Severity::Information)),
            "hint" => Some(Some(Severity::Hint)),
            "off" => Some(None),
            _ => None,
        }
    }
}

/// Declares `DiagnosticCode` from one table, one line per code, so that a code's string, default
/// severity and title are written together and adding a code is one line.
macro_rules! diagnostic_codes {
    ($($(#[$meta:meta])* $name:ident = $code:literal, $severity:ident, $title:literal;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DiagnosticCode {
            $($(#[$meta])* $name,)*
        }

        impl DiagnosticCode {
            pub const ALL: &'static [DiagnosticCode] = &[$(DiagnosticCode::$name,)*];

            pub fn code(self) -> &'static str {
                match self {
                    $(DiagnosticCode::$name => $code,)*
                }
            }

            pub fn default_severity(self) -> Severity {
                match self {
                    $(DiagnosticCode::$name => Severity::$severity,)*
                }
            }

            /// A short title, used as the heading of the code's documentation page.
            pub fn title(self) -> &'static str {
                match self {
                    $(DiagnosticCode::$name => $title,)*
                }
            }
        }
    };
}

diagnostic_codes! {
    // ---- HS0xxx: syntax -------------------------------------------------------------------
    /// The file is not valid UTF-8.
    InvalidUtf8 = "HS0001", Error, "file is not valid UTF-8";
    /// A token or line that fits no construct.
    UnexpectedToken = "HS0002", Error, "unexpected token";
    /// A delimiter or block that is never closed.
    UnclosedDelimiter = "HS0003", Error, "unclosed delimiter";
    /// A required piece of syntax is missing.
    ExpectedSyntax = "HS0004", Error, "missing syntax";
    /// Brackets nested beyond the parser's depth limit.
    NestingTooDeep = "HS0005", Error, "nesting too deep";
    /// Characters that form no MLIR token, or an unterminated string.
    InvalidToken = "HS0006", Error, "invalid token";
    /// More diagnostics in one file than are shown (`MAX_SHOWN`): one note counts the rest.
    DiagnosticsNotShown = "HS0007", Information, "more diagnostics than are shown";

    // ---- HS1xxx: types ----------------------------------------------------------------------
    /// A channel's data or an extra signal that is not an integer or a float.
    SignalNotIntOrFloat = "HS1001", Error, "signal type is not an integer or a float";
    /// A channel's data type of width 0.
    ZeroWidthData = "HS1002", Error, "channel data of zero width";
    /// Two extra signals of one type with the same name.
    DuplicateSignalName = "HS1003", Error, "extra signal name used twice";
    /// An extra-signal name with characters other than letters, digits and `_`.
    BadSignalName = "HS1004", Error, "extra signal name with invalid characters";
    /// An extra signal named `valid` or `ready`.
    ReservedSignalName = "HS1005", Error, "reserved extra signal name";

    // ---- HS11xx: SSA and single use -----------------------------------------------------
    /// A use of a name no definition in scope gives.
    UndefinedValue = "HS1101", Error, "undefined value";
    /// A name defined twice where both are visible.
    RedefinedValue = "HS1102", Error, "value defined twice";
    /// An op bound to more or fewer result names than it defines.
    ResultCountMismatch = "HS1103", Error, "wrong number of results bound";
    /// `%x#N` past the end of `%x`'s results.
    ResultIndexOutOfRange = "HS1104", Error, "result index out of range";
    /// The type an op's written types give a use differs from the value's type.
    UseTypeMismatch = "HS1105", Error, "value used at a different type";
    /// A use before its definition where definitions must dominate uses.
    UseBeforeDefinition = "HS1106", Error, "value used before its definition";
    /// A channel in a `handshake.func` that nothing consumes.
    UnusedValue = "HS1107", Warning, "channel never consumed";
    /// A channel in a `handshake.func` consumed more than once.
    MultipleUses = "HS1108", Warning, "channel consumed more than once";
    /// An op inside a `handshake.func` that hsir does not know.
    UnknownOp = "HS1109", Information, "op not known to hsir";
    /// A function before fork and sink materialization (no `fork`, values used several
    /// times): the single-use rule is stated once for the whole function.
    NotMaterialized = "HS1110", Information, "function before fork and sink materialization";

    // ---- HS12xx: op signatures ------------------------------------------------------------
    /// An op given more or fewer operands than it takes.
    OperandCount = "HS1201", Error, "wrong number of operands";
    /// Operands or results that must share a type do not.
    OperandTypesDiffer = "HS1202", Error, "operand types differ";
    /// A mux select or control_merge index that is not an integer wide enough.
    BadIndexType = "HS1203", Error, "select or index type cannot pick an input";
    /// An operand of the wrong kind (a condition that is not `i1`, ...).
    BadOperandType = "HS1204", Error, "operand of the wrong type";
    /// Extra signals that an op forwards differ between its operands and results.
    ExtraSignalsDiffer = "HS1205", Error, "extra signals differ";
    /// A constant whose value's type is not its result's data type.
    ConstantValueType = "HS1206", Error, "constant value of the wrong type";
    /// A CIRCT buffer's kind or initial values are wrong.
    BufferConfig = "HS1207", Error, "buffer kind or initial values wrong";
    /// A memory op's ports disagree with its load and store counts or its memref.
    MemoryPorts = "HS1208", Error, "memory ports do not match";
    /// An instance disagrees with its callee's signature.
    InstanceMismatch = "HS1209", Error, "instance does not match its callee";
    /// An instance of a function that does not exist or is not a `handshake.func`.
    UnknownCallee = "HS1210", Error, "instance of an unknown function";
    /// `end` / `return` disagrees with the function's results.
    ReturnMismatch = "HS1211", Error, "return does not match the function's results";
    /// `argNames` / `resNames` with the wrong number of entries or non-strings.
    PortNamesCount = "HS1212", Error, "port names do not match the ports";
    /// An extension that does not widen or a truncation that does not narrow.
    CastWidth = "HS1213", Error, "extension or truncation in the wrong direction";
    /// compose / decompose whose wide type is not the narrow one's signals packed.
    ComposeWidth = "HS1215", Error, "compose or decompose type does not match";
    /// A Handshake op outside a `handshake.func`.
    HandshakeOpOutsideFunc = "HS1216", Error, "Handshake op outside a handshake.func";
    /// A memref argument of a CIRCT `handshake.func` that no `extmemory` uses.
    MemrefArgUnused = "HS1217", Error, "memref argument without extmemory";
    /// pack / unpack whose types are not a tuple and its elements.
    TupleMismatch = "HS1218", Error, "pack or unpack types do not match the tuple";
    /// `wait` whose result type is not its second operand's type.
    WaitResultType = "HS1219", Error, "wait result type differs from the waited value";

    // ---- HS2001-HS2019: buffers (lints/buffers.rs) -------------------------------------------
    /// A buffer type that is none of Dynamatic's six.
    UnknownBufferType = "HS2001", Error, "unknown buffer type";
    /// A buffer type written by its legacy name (`OEHB`, `TEHB`, `elastic_fifo_inner`, `TFIFO`).
    LegacyBufferType = "HS2002", Warning, "legacy buffer type name";
    /// `NUM_SLOTS` / `numSlots` that is not a strictly positive integer.
    BufferSlotCount = "HS2003", Error, "buffer slot count is not a positive integer";
    /// A `ONE_SLOT_*` buffer with more than one slot.
    OneSlotBufferSlots = "HS2004", Error, "one-slot buffer with several slots";
    /// A `TIMING` other than the latencies of the buffer's type.
    BufferTimingMismatch = "HS2005", Error, "TIMING differs from the buffer type's latencies";
    /// A `TIMING` that is not `#handshake<timing {D: d, V: v, R: r}>`.
    MalformedBufferTiming = "HS2006", Error, "malformed TIMING";
    /// A `dvLatency` other than the one the buffer's type requires.
    DvLatencyMismatch = "HS2007", Error, "dvLatency differs from the buffer type's";
    /// A buffer on a memref or on a port channel of a memory interface.
    UnbufferizableChannel = "HS2008", Error, "buffer on an unbufferizable channel";
    /// A load or store attached to an LSQ without a buffer slot on its inputs.
    LsqAccessUnbuffered = "HS2009", Warning, "LSQ access without a buffer slot on its inputs";

    // ---- HS30xx: LOOM loop control ---------------------------------------------------------
    /// A `dataflow.stream`, `gate`, `carry` or `invariant` whose written types do not fit it.
    LoomOpMalformed = "HS3001", Error, "malformed LOOM dataflow op";
    /// A `dataflow.stream` whose `step_op` or `cont_cond` names no supported operator.
    StreamAttribute = "HS3002", Error, "stream step or condition operator unknown";
    /// Loop-body control or a body done split keyed by a stream's raw_will_continue.
    RawWillContinueBodyControl = "HS3003", Error, "loop-body control keyed by raw_will_continue";
    /// A loop-carried data value keyed by a gate's after_cond instead of raw_will_continue.
    DataCarryAfterCond = "HS3004", Warning, "loop-carried value keyed by after_cond";
    /// An op whose operands receive different numbers of tokens per invocation.
    TokenRateMismatch = "HS3005", Warning, "operands receive different token counts";

    // ---- HS202x: dataflow cycles --------------------------------------------------------------
    CombinationalLoop = "HS2020", Error, "combinational loop";
    ReadyLoop = "HS2021", Warning, "ready-path loop";
    MergeInCycle = "HS2022", Warning, "merge in a cycle without a buffer slot";
    /// A function with no buffers yet whose cycles nothing breaks: one note for the function
    /// (buffer placement's input); RTL generation refuses it as an error.
    UnbufferedCycles = "HS2023", Information, "cycles without buffers, before placement";

    // ---- HS3020-HS3039: memory accesses, their ctrl-done tokens (lints/memory.rs) and the
    // memory interfaces' end control (lints/ctrl_end.rs) --------------------------------
    /// An access's ctrl derives from neither the start token nor its own memory's done tokens.
    AccessCtrlSource = "HS3020", Error, "access ctrl not derived from the start token or its memory";
    /// An access's ctrl depends on done tokens of another memory interface (LOOM's CTRL_MULTI_MEM).
    AccessCtrlMultiMem = "HS3021", Error, "access ctrl depends on another memory (CTRL_MULTI_MEM)";
    /// A load's or store's memory-side results do not all feed one memory interface.
    AccessNotAttached = "HS3022", Error, "access not attached to exactly one memory interface";
    /// An access wired to a port of the wrong kind, or a load reading another port's data.
    AccessPortMismatch = "HS3023", Error, "access wired to the wrong memory port";
    /// A memory interface whose `ld` / `st` counts differ from the loads and stores attached.
    AccessCountMismatch = "HS3024", Error, "memory port counts differ from the attached accesses";
    /// A memory interface result that breaks the load-data / store-done / load-done layout.
    MemoryResultLayout = "HS3025", Error, "memory result used against the port layout";
    /// An access's done token that goes straight into a `sink`.
    DoneTokenSunk = "HS3026", Error, "access done token discarded";
    /// An access's done token that can end elsewhere than in the returned control.
    DoneNotCompleted = "HS3027", Error, "access done token does not reach the returned control";
    /// A join of done tokens of two memory interfaces that feeds more than the returned control.
    CrossDomainJoin = "HS3028", Warning, "done tokens of two memories joined before the return";
    /// A Dynamatic memory interface whose `ctrlEnd` is the start token while it serves a store
    /// outside the entry block: `end` may fire before the store lands (lints/ctrl_end.rs).
    CtrlEndFromStart = "HS3029", Warning, "memory interface's end control is the start token";

    // ---- HS4xxx: pipelines ------------------------------------------------------------------
    /// A stage block that does not end in `pipeline.stage` / `pipeline.return`.
    PipelineStageNoTerminator = "HS4001", Error, "stage block without a pipeline terminator";
    /// `pipeline.stage` targets that are unknown or form a cycle.
    PipelineStageChain = "HS4002", Error, "pipeline stages do not form a chain";
    /// A stage block no `pipeline.stage` on the chain from the entry stage reaches.
    PipelineStageUnreachable = "HS4003", Warning, "stage block never reached";
    /// A non-entry stage block whose last argument is not the `i1` stage enable.
    PipelineStageEnableMissing = "HS4004", Error, "stage block without its i1 enable argument";
    /// A pipeline op outside its parent op, or in a phase that does not allow it.
    PipelineOpMisplaced = "HS4005", Error, "pipeline op not allowed here";
    /// A value used in another stage than its own without the phase's crossing mechanism.
    PipelineCrossStageUse = "HS4006", Error, "value used outside its stage";
    /// A `stallability` array without a stall signal or of the wrong length.
    PipelineStallability = "HS4007", Error, "stallability does not fit the pipeline";
    /// `regs(...)` and `pass(...)` of a `pipeline.stage` that do not match the target block.
    PipelineStageArgsMismatch = "HS4008", Error, "stage values do not match the target stage";
    /// A return whose values, or a pipeline whose results, do not match the declared outputs.
    PipelineReturnMismatch = "HS4009", Error, "returned values do not match the declared outputs";
    /// A `pipeline.latency` result used fewer stages after its definition than its latency.
    PipelineLatencyEarlyUse = "HS4010", Error, "multi-cycle value used before it is ready";
    /// A `pipeline.latency` of latency 0, or without results in a scheduled pipeline.
    PipelineLatencyMalformed = "HS4011", Error, "malformed pipeline.latency";
    /// The pipeline rationale's older syntax or implicit-register form.
    PipelineLegacyForm = "HS4012", Warning, "pipeline written in an older form";

    // ---- HS5001-HS5099: the backend (lowering, RTL, simulation) ---------------------------
    /// An op the backend has no RTL for (floating point, LSQ, speculation, ...).
    BackendUnsupportedOp = "HS5001", Error, "op the backend cannot lower";
    /// A value with no use, or more than one, given a sink or fork by the backend.
    BackendMaterialized = "HS5002", Information, "sink or fork added by the backend";
    /// A channel type the backend cannot carry (upstream signals, data wider than 64 bits).
    BackendUnsupportedType = "HS5003", Error, "type the backend cannot lower";
    /// An `instance` of a function without a body, or of no function at all.
    BackendNoBody = "HS5004", Error, "instance of a function without a body";
    /// `--top` names no function of the file, or the file has none to generate.
    BackendNoTop = "HS5005", Error, "no function to generate";
    /// The interpreter ended with tokens in channels that no op consumed.
    SimTokensLeft = "HS5006", Warning, "tokens left in channels after simulation";
    /// A merge had tokens on more than one input: its output order depends on timing.
    SimMergeRace = "HS5007", Warning, "merge output order depends on timing";
    /// No top was named and several functions could be it; the last was generated.
    BackendTopChosen = "HS5008", Information, "top function chosen among several";
    /// The function to generate instantiates, directly or through others, one with errors.
    BackendBrokenCallee = "HS5009", Error, "instance of a function with errors";
    /// A design whose functions have dataflow lint errors, which RTL would build as they are.
    BackendLintErrors = "HS5010", Error, "dataflow lint errors stop RTL generation";
    /// The cycle-level simulation with the library's slots and timing found a deadlock.
    CapacityDeadlock = "HS5011", Error, "deadlock in hardware: a cycle without room to move";

    // ---- HS6001-HS6099: buffer placement ---------------------------------------------------
    /// The timing model has no entry for an op; its documented default was used.
    PlacementNoTiming = "HS6001", Warning, "no timing data for an op";
    /// A combinational path longer than the clock period that no buffer can break.
    PlacementPathTooLong = "HS6002", Error, "path longer than the clock period";
    /// A placement model stopped at its time limit (or was cancelled); its best placement was used.
    PlacementTimeLimit = "HS6003", Warning, "buffer placement stopped before proving optimality";
    /// A profile was given but cannot weigh the function's loops.
    PlacementProfileUnused = "HS6004", Warning, "profile does not apply to the function";
    /// The placement deadlocks in the cycle-level model and adding slots did not help.
    PlacementDeadlock = "HS6005", Error, "placement deadlocks in hardware";
    /// The MILPs' placement deadlocked in the cycle-level model; slots were added until it ran.
    PlacementDeadlockRepaired = "HS6006", Information, "slots added to a placement that deadlocked";
}

/// The most diagnostics shown for one file, by `hsir check` and the server. A generated or
/// corrupted file can have a diagnostic per token (100,000 undefined `%x` on one line); past
/// this many, each one shown costs the reader more than it tells, and the rest are counted in
/// one HS0007 note instead.
pub const MAX_SHOWN: usize = 1000;

/// The HS0007 note standing for `hidden`, the diagnostics of a file past the first
/// `MAX_SHOWN`, at `at` (the first hidden one's place).
pub fn not_shown_note<'a>(
    at: TextRange,
    hidden: impl IntoIterator<Item = &'a Diagnostic>,
) -> Diagnostic {
    let (mut total, mut errors, mut warnings) = (0usize, 0usize, 0usize);
    for d in hidden {
        total += 1;
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
            Severity::Information | Severity::Hint => {}
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    Diagnostic::new(
        DiagnosticCode::DiagnosticsNotShown,
        at,
        format!(
            "{} more not shown ({}, {}) from here on; hsir shows at most {MAX_SHOWN} per file",
            plural(total, "diagnostic"),
            plural(errors, "error"),
            plural(warnings, "warning"),
        ),
    )
}

/// What a file shows of its diagnostics (`cap_shown`): each with the offset its ranges count
/// from, borrowed, not copied.
#[derive(Debug)]
pub struct Shown<'a> {
    /// The first `MAX_SHOWN`.
    pub diagnostics: Vec<(&'a Diagnostic, TextSize)>,
    /// One HS0007 note in place of the rest, if there are more (ranges in the file's text).
    pub note: Option<Diagnostic>,
}

impl Shown<'_> {
    /// Every diagnostic shown, in order, with the offset its ranges count from.
    pub fn iter(&self) -> impl Iterator<Item = (&Diagnostic, TextSize)> + Clone {
        let note = self.note.iter().map(|d| (d, TextSize::from(0)));
        self.diagnostics.iter().copied().chain(note)
    }

    /// Copies of the diagnostics shown, with ranges in the file's text.
    pub fn to_vec(&self) -> Vec<Diagnostic> {
        self.iter().map(|(d, at)| d.clone().shifted(at)).collect()
    }
}

/// The first `MAX_SHOWN` of a file's diagnostics, each given with the offset its ranges count
/// from (as `Database::sorted_diagnostics` gives them); then one HS0007 note in place of the
/// rest.
pub fn cap_shown<'a>(
    diagnostics: impl IntoIterator<Item = (&'a Diagnostic, TextSize)>,
) -> Shown<'a> {
    let mut all = diagnostics.into_iter();
    let shown = all.by_ref().take(MAX_SHOWN).collect();
    let note = all.next().map(|(first, at)| {
        let hidden = std::iter::once(first).chain(all.map(|(d, _)| d));
        not_shown_note(first.range + at, hidden)
    });
    Shown { diagnostics: shown, note }
}

impl DiagnosticCode {
    pub fn from_code(code: &str) -> Option<DiagnosticCode> {
        DiagnosticCode::ALL.iter().copied().find(|c| c.code() == code)
    }
}

/// A text edit: replace `range` with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// A quick fix: a label and the edits that apply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub label: String,
    pub edits: Vec<TextEdit>,
}

/// Another location that explains a diagnostic.
impl Fix {
    /// `text` with the fix's edits applied. The edits are ranges of `text` that do not overlap;
    /// they are applied last first, so each range still means what it meant in `text`.
    pub fn apply(&self, text: &str) -> String {
        let mut edits: Vec<&TextEdit> = self.edits.iter().collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
        let mut out = text.to_string();
        for edit in edits {
            out.replace_range(std::ops::Range::<usize>::from(edit.range), &edit.new_text);
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub range: TextRange,
    pub severity: Severity,
    /// Lowercase, naming the objects involved; other locations go in `related`.
    pub message: String,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(code: DiagnosticCode, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            range,
            severity: code.default_severity(),
            message: message.into(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related { range, message: message.into() });
        self
    }

    /// Every range of the diagnostic: its own, its notes', its fixes' edits.
    pub fn ranges(&self) -> impl Iterator<Item = TextRange> + '_ {
        let related = self.related.iter().map(|r| r.range);
        let edits = self.fixes.iter().flat_map(|f| f.edits.iter().map(|e| e.range));
        std::iter::once(self.range).chain(related).chain(edits)
    }

    /// Every range of the diagnostic (its own, its notes', its fixes' edits) through `f`.
    pub fn map_ranges(&mut self, f: impl Fn(TextRange) -> TextRange) {
        self.range = f(self.range);
        for related in &mut self.related {
            related.range = f(related.range);
        }
        for fix in &mut self.fixes {
            for edit in &mut fix.edits {
                edit.range = f(edit.range);
            }
        }
    }

    /// The diagnostic with every range moved by `offset`: from an item's text to its file's.
    pub fn shifted(mut self, offset: TextSize) -> Diagnostic {
        self.map_ranges(|r| r + offset);
        self
    }
}
