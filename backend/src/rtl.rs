//! "Generate RTL": from a parse to the files to write, with a self-checking testbench on
//! request. No IO: the caller writes the files.

use std::collections::{BTreeMap, BTreeSet};

use hsir_analysis::ops::OpKind;
use hsir_analysis::{Diagnostic, DiagnosticCode as Code, Parse, TextRange};

use crate::netlist::{self, Netlist};
use crate::program::{Func, Program};
use crate::testbench::{self, Stimulus};
use crate::{pipeline, sim, verilog};

/// What to generate.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The function (or `hw.module`) to generate; by default the one nothing instantiates.
    pub top: Option<String>,
    pub testbench: Option<TestbenchOptions>,
    /// Generate a design whose functions have dataflow lint errors (HS5010 otherwise): to
    /// watch in simulation what a lint means.
    pub allow_lint_errors: bool,
    /// An inputs file's text (`sim::stimulus::read_inputs_file`) for the testbench, over the
    /// function's `// hsir-sim:` directives.
    pub inputs_file: Option<String>,
    /// Leave the capacity check (HS5011) to the caller: co-simulation runs the cycle-level
    /// model on its own inputs and reports its verdict beside the RTL's.
    pub skip_capacity_check: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct TestbenchOptions {
    /// Tokens per argument; by default what the function's `// hsir-sim: tokens=N` directive
    /// says, else `sim::stimulus::default_tokens`.
    pub tokens: Option<usize>,
    pub seed: u64,
    /// Check the tokens left in the design's channels at the end (see `Stimulus`).
    pub probe_leftovers: bool,
}

impl Default for TestbenchOptions {
    fn default() -> TestbenchOptions {
        TestbenchOptions { tokens: None, seed: 1, probe_leftovers: true }
    }
}

/// One file to write into the output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// A plain file name (no folder).
    pub name: String,
    pub text: String,
}

#[derive(Debug, Clone, Default)]
pub struct Output {
    /// The design's module name.
    pub top: String,
    /// In compile order, the testbench last (the order of `files.f`, which the caller writes,
    /// since it names the files where they are written).
    pub files: Vec<File>,
    /// Notes and warnings (forks and sinks added, merge races in the testbench's run).
    pub diagnostics: Vec<Diagnostic>,
    /// The lowered design, for callers that look inside it (`None` for pipelines).
    pub netlist: Option<Netlist>,
}

/// Everything `hsir rtl` writes for `parse`, or the errors that stop it.
pub fn generate(parse: &Parse, options: &Options) -> Result<Output, Vec<Diagnostic>> {
    let program = Program::analyse(parse);
    generate_program(parse.tree().text(), &program, options)
}

/// As `generate`, for a program already made from `text`. The top is refused when it, or a
/// function it instantiates, has errors (`Program::check`); errors elsewhere in the file do
/// not stop it.
pub fn generate_program(
    text: &str,
    program: &Program,
    options: &Options,
) -> Result<Output, Vec<Diagnostic>> {
    let mut notes = Vec::new();
    let top = match &options.top {
        Some(top) => top.trim_start_matches('@').to_string(),
        None => match program.default_top() {
            Some(f) => {
                let candidates = program.top_candidates();
                if candidates.len() > 1 {
                    let names: Vec<String> = candidates.iter().map(|c| format!("@{}", c.name)).collect();
                    notes.push(Diagnostic::new(
                        Code::BackendTopChosen,
                        f.absolute(f.op().name_range),
                        format!(
                            "generating `@{}`, the last of {} functions nothing instantiates ({}); name the one you want (`--top`, or the command's `function`)",
                            f.name,
                            candidates.len(),
                            names.join(", ")
                        ),
                    ));
                }
                f.name.clone()
            }
            None => match program.modules.iter().rev().find(|m| has_pipeline(m)) {
                Some(m) => m.name.clone(),
                None => {
                    return Err(vec![Diagnostic::new(
                        Code::BackendNoTop,
                        first_item(program),
                        format!("the file has no `{}` with a body and no `hw.module` with a pipeline to generate", OpKind::Func.full_name()),
                    )])
                }
            },
        },
    };
    if program.func(&top).is_none() {
        if let Some(module) = program.modules.iter().find(|m| m.name == top) {
            program.check(&top)?;
            return pipeline_output(module, options);
        }
        let known: Vec<String> = program
            .funcs
            .iter()
            .filter(|f| !f.external)
            .map(|f| format!("@{}", f.name))
            .chain(program.modules.iter().map(|m| format!("@{}", m.name)))
            .collect();
        return Err(vec![Diagnostic::new(
            Code::BackendNoTop,
            first_item(program),
            format!(
                "no function or module `@{top}` in this file; it has {}",
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ),
        )]);
    }
    program.check(&top)?;
    if !options.allow_lint_errors {
        let lint_errors = program.lint_errors(&top);
        if !lint_errors.is_empty() {
            return Err(lint_errors);
        }
        // A deadlock the library's slots and timing make, found before any Verilog is written:
        // on the inputs the testbench would draw, or without a testbench, on one token per
        // argument (one invocation; Dynamatic's circuits are not re-entrant, so more tokens
        // than the design was built for is the stimulus's problem, not the design's).
        let seed = options.testbench.map_or(1, |t| t.seed);
        let tokens = match options.testbench {
            Some(t) => t.tokens,
            None => Some(1),
        };
        if let Some(crate::capacity::Verdict::Deadlock(d)) = (!options.skip_capacity_check)
            .then(|| {
                let file = options.inputs_file.as_deref();
                crate::capacity::check(text, program, &top, seed, tokens, file)
            })
            .flatten()
        {
            return Err(vec![crate::capacity::diagnostic(&top, &d)]);
        }
    }
    let lowered = netlist::lower(program, &top);
    let Some(netlist) = lowered.netlist else {
        return Err(lowered.diagnostics);
    };
    let mut diagnostics = notes;
    diagnostics.extend(lowered.diagnostics);
    let name = netlist.top().name.clone();
    let mut files = vec![
        File { name: "hsir_lib.v".into(), text: verilog::library_text(&netlist) },
        File {
            name: format!("{name}.v"),
            text: verilog::design_text(&netlist, &format!("Generated by hsir from `@{top}`.")),
        },
    ];
    if let Some(tb) = options.testbench {
        let func = program.func(&top).expect("checked above");
        let stimulus = stimulus(
            text,
            program,
            func,
            &netlist,
            tb,
            options.inputs_file.as_deref(),
            &mut diagnostics,
        )?;
        files.push(File {
            name: format!("{name}_tb.v"),
            text: testbench::testbench(&netlist, &stimulus),
        });
    }
    Ok(Output { top: name, files, diagnostics, netlist: Some(netlist) })
}

/// Where a problem with the file as a whole is shown: the first function's name.
fn first_item(program: &Program) -> TextRange {
    program.funcs.first().map_or(TextRange::default(), |f| f.absolute(f.op().name_range))
}

/// Whether an `hw.module` holds a pipeline.
fn has_pipeline(module: &crate::HwModule) -> bool {
    module.item.ops.iter().any(|op| OpKind::of(op).is_some_and(OpKind::is_pipeline))
}

fn pipeline_output(module: &crate::HwModule, options: &Options) -> Result<Output, Vec<Diagnostic>> {
    let lowered = pipeline::lower(module)?;
    let name = lowered.name.clone();
    let mut files = vec![File { name: format!("{name}.v"), text: lowered.verilog.clone() }];
    if let Some(tb) = options.testbench {
        let cycles = 64 + 16 * tb.tokens.unwrap_or(sim::stimulus::DEFAULT_TOKENS);
        files.push(File {
            name: format!("{name}_tb.v"),
            text: pipeline::testbench(module, &lowered, cycles, tb.seed),
        });
    }
    Ok(Output { top: name, files, diagnostics: Vec::new(), netlist: None })
}

/// The testbench's inputs, and what the interpreter says comes out of them.
fn stimulus(
    text: &str,
    program: &Program,
    func: &Func,
    netlist: &Netlist,
    options: TestbenchOptions,
    inputs_file: Option<&str>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Stimulus, Vec<Diagnostic>> {
    let top = netlist.top();
    let mut directives = sim::stimulus::directives(text, program, func).map_err(|e| {
        vec![Diagnostic::new(
            Code::BackendNoTop,
            func.absolute(func.op().name_range),
            format!("a `// hsir-sim:` directive of `@{}`: {e}", func.name),
        )]
    })?;
    if let Some(tokens) = options.tokens {
        directives.tokens = tokens;
    }
    if let Some(file) = inputs_file {
        sim::stimulus::read_inputs_file(func, file, &mut directives).map_err(|e| {
            vec![Diagnostic::new(
                Code::BackendNoTop,
                func.absolute(func.op().name_range),
                format!("the inputs file, for `@{}`: {e}", func.name),
            )]
        })?;
    }
    let sim_inputs = sim::stimulus::inputs(func, &directives, options.seed);
    let inputs: Vec<Vec<u64>> = func
        .args()
        .iter()
        .zip(&sim_inputs.args)
        .filter(|(&arg, _)| func.ty(arg).and_then(crate::program::memref_shape).is_none())
        .map(|(_, tokens)| tokens.clone())
        .collect();
    let memories = sim_inputs.memories.clone();
    let limit = 1_000_000;
    let outcome = sim::run(program, &func.name, &sim_inputs, limit).map_err(|e| {
        vec![Diagnostic::new(
            Code::BackendUnsupportedOp,
            TextRange::default(),
            format!("the interpreter cannot run `@{}` for the testbench: {e}", func.name),
        )]
    })?;
    // Ranges of what happened inside an instance are in the callee's text.
    let at = |site: &sim::Site, range: TextRange| {
        program.func(&site.func).map_or(TextRange::default(), |f| f.absolute(range))
    };
    for race in &outcome.races {
        diagnostics.push(Diagnostic::new(
            Code::SimMergeRace,
            at(&race.site, race.range),
            race.message.clone(),
        ));
    }
    let mut leftovers = BTreeSet::new();
    for left in &outcome.leftovers {
        if left.site.instances.is_empty() {
            let label = func.item.values[left.value as usize]
                .display(&func.item, hsir_analysis::ir::group_len(&func.item, left.value));
            leftovers.insert(label);
        }
        diagnostics.push(Diagnostic::new(
            Code::SimTokensLeft,
            at(&left.site, left.range),
            left.message.clone(),
        ));
    }
    let max_cycles = 2_000 + 40 * outcome.firings;
    // A race on a memory's words or on an LSQ's allocation order makes that memory's final
    // contents depend on timing: it is not checked (the races are reported above); a race the
    // top's memories cannot be told from (inside an instance) leaves every memory unchecked.
    let specs = crate::memories::memories(func);
    let mut timed: BTreeSet<&str> = BTreeSet::new();
    let mut all_timed = false;
    for race in &outcome.races {
        if !matches!(race.kind, sim::RaceKind::Memory { .. } | sim::RaceKind::Allocation { .. }) {
            continue;
        }
        let memory = specs.iter().find(|m| {
            m.kind == crate::memories::MemoryKind::Internal(race.op)
                || m.interfaces.iter().any(|i| i.op == race.op)
        });
        match memory {
            Some(m) if race.site.instances.is_empty() => {
                timed.insert(&m.name);
            }
            _ => all_timed = true,
        }
    }
    let final_memories: BTreeMap<String, Vec<u64>> = outcome
        .memories
        .iter()
        .filter(|(name, _)| !all_timed && !timed.contains(name.as_str()))
        .filter(|(name, _)| top.memories.iter().any(|m| &m.name == *name))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(Stimulus {
        inputs,
        memories,
        outputs: outcome.results.clone(),
        final_memories,
        leftovers,
        seed: options.seed,
        max_cycles,
        // A run that ended by `end` stopped where the circuit starts again; the RTL goes on
        // past `end`, so its channels are not compared with the interpreter's.
        probe_leftovers: options.probe_leftovers && outcome.ending == sim::Ending::Quiescence,
        stalls: true,
        mode: testbench::Mode::Check,
        unordered: outcome.races.iter().any(|r| matches!(r.kind, sim::RaceKind::Merge { .. })),
    })
}
