//! An untimed, token-level interpreter of a `handshake.func`: what the circuit computes, with
//! no clock. The RTL simulations are compared to it, so every op behaves as its module in the
//! component library does (backend/rtl/README.md), minus timing.
//!
//! The model is a Kahn network. Every channel is an unbounded FIFO of `u64` tokens (data masked
//! to the channel's width, control tokens 0); function arguments start holding their input
//! tokens. An op fires when it holds what one step needs, and consumes and produces atomically.
//! Ops with several independent parts (a `load`'s request and response, each port of a memory)
//! fire one part per step. Instances are elaborated inline: the callee's body runs on the
//! caller's channels, once per instance.
//!
//! Scheduling is deterministic. Ops whose outputs do not depend on arrival order fire first, in
//! op order, until none can; then one of the order-dependent steps fires (a `merge` or
//! `control_merge`, or a `mem_controller` signalling its end), and the first phase resumes.
//! The order-dependent steps take turns (the first waiting one after the last that fired), so
//! an always-ready merge cannot starve the others. Deferring merges lets tokens gather at their
//! inputs, so a merge that sees several inputs holding tokens (its output order then depends on
//! timing) is recorded as a race; the loop of a well-formed circuit never shows one. Two memory
//! ports reaching one address at once are recorded as races too.
//!
//! A `source` is always valid in hardware. Here it produces only while its output channel is
//! empty, and so does every op fed by sources alone (a `constant` of a `source`, a cast of that
//! constant): such chains hold at most one token per channel, cannot flood, and their tokens are
//! never reported as left over.
//!
//! Running stops at quiescence (nothing can fire), or with `SimError::StepLimit` (which still
//! says what reached the results). What is left then (tokens on channels, values latched in
//! LOOM's loop ops) is the symptom of a token-rate bug such as raw_will_continue driving body
//! control.
//!
//! **Ending at `end`.** Dynamatic's circuits end when `end` has produced its outputs, and many
//! never settle: in fast-token-delivery (FTD) circuits a loop's start value is a source's
//! constant chosen by a `mux` whose select is a `merge` of a start constant and the loop's
//! condition, so once the loop exits, its false condition selects the start value again and the
//! loop starts over. So once the top function's terminator has sent every result once per
//! invocation (the tokens given to its start argument, `Func::start_arg`; without one this
//! never applies), no `mux` may choose a source-fed input any more: loops that are running
//! finish (the rest of the circuit drains, memories take their last stores), and none starts
//! again. The run then ends at quiescence. If some `mux` is then waiting at such a choice, or
//! waits for an input that carries one token per invocation and has none left (a loop made
//! ready for a next invocation, as FTD's merges make every loop once it exits), the run ended
//! by `end` (`Ending::End`), and a token left over is reported only when it can be no part of
//! a new run: tokens on channels downstream of such a `mux` (a run that started again before
//! `end`, since nothing stops an outer loop from running ahead and restarting before the
//! results are out) or at an op that waits only for inputs fed by sources or downstream of
//! one are not reported. Otherwise (`Ending::Quiescence`) the run is exactly what it was
//! without this rule, and everything left is reported.

mod arith;
mod build;
pub mod float;
mod lsq;
mod node;
mod report;
pub mod stimulus;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

use hsir_analysis::ir::{OpId, ValueId};
use hsir_analysis::TextRange;

use crate::program::Program;

pub(crate) use arith::{binary, unary};
pub use arith::{compare, BinaryOp, Predicate, UnaryOp};
pub(crate) use build::{constant_text, predicate_text};

/// The largest memory the interpreter holds, in words.
pub const MAX_MEMORY_WORDS: u64 = 1 << 24;

/// The limit on nested instances; deeper means recursion, which hardware cannot elaborate.
pub const MAX_INSTANCE_DEPTH: usize = 32;

/// What a run starts from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    /// The tokens of each function argument, in order; empty for memref arguments. Data is
    /// masked to the argument's width; control tokens are read as 0.
    pub args: Vec<Vec<u64>>,
    /// Initial contents of argument memories, by name (`crate::memories`); missing memories and
    /// words are 0. Internal memories always start at 0, as in the library.
    pub memories: BTreeMap<String, Vec<u64>>,
}

/// What a run ends with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The tokens that reached each operand of the function's `return` / `end`, in order.
    pub results: Vec<Vec<u64>>,
    /// Final contents of every memory by name: the top function's memories by their names
    /// (`crate::memories`), internal memories of instances as `<instance path>.<name>` with
    /// each instance named `inst<op index>` in its caller.
    pub memories: BTreeMap<String, Vec<u64>>,
    /// Tokens left on channels at quiescence, in channel order (arguments first).
    pub leftovers: Vec<Leftover>,
    /// Values latched inside ops at quiescence (LOOM's loop ops mid-loop, a `mem_controller`
    /// still waiting for stores).
    pub held: Vec<Held>,
    /// Timing-dependent steps seen, one entry per op and kind, in the order first seen.
    pub races: Vec<Race>,
    /// Steps fired.
    pub firings: u64,
    /// How the run ended.
    pub ending: Ending,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ending {
    /// Nothing could fire any more.
    #[default]
    Quiescence,
    /// The top function's `end` had sent its results once per invocation, and the circuit
    /// would then have started again from tokens of `source`s (a loop whose start value is a
    /// source's constant): it was stopped there, as Dynamatic's testbench stops at `end`.
    End,
}

/// Where something lives: a function, reached through a chain of instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The function whose item the op, value and range refer to.
    pub func: String,
    /// The `instance` ops leading there from the top function, outermost first (each in its
    /// caller's item); empty in the top function.
    pub instances: Vec<OpId>,
}

/// Tokens left on one channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leftover {
    pub site: Site,
    /// The value holding them, in the function of `site`: the consumer's operand value when the
    /// channel has a consumer there.
    pub value: ValueId,
    pub count: usize,
    /// The op and operand position that would consume them, if any.
    pub consumer: Option<(OpId, usize)>,
    /// E.g. "1 token left on the control of `load` (`%body`)".
    pub message: String,
    /// The consuming operand's range, or the value's definition when nothing consumes it;
    /// relative to the item of `site.func`.
    pub range: TextRange,
    /// The tokens, oldest first.
    pub tokens: Vec<u64>,
}

/// A value latched inside an op at quiescence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub site: Site,
    pub op: OpId,
    pub message: String,
    /// The op's name, relative to the item of `site.func`.
    pub range: TextRange,
}

/// A step whose outcome depends on timing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    pub site: Site,
    pub op: OpId,
    pub kind: RaceKind,
    /// How many steps raced.
    pub count: u64,
    /// Describes the first one.
    pub message: String,
    /// The op's name, relative to the item of `site.func`.
    pub range: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RaceKind {
    /// A `merge` / `control_merge` fired with tokens on these inputs (the first, lowest one
    /// passed).
    Merge { inputs: Vec<usize> },
    /// Two ports of a memory reached one address together: a load and a store, or two stores.
    Memory { address: u64, stores: bool },
    /// An `lsq` held allocation tokens of these groups at once (the first, whose token was made
    /// first, was allocated): the order of their accesses depends on timing.
    Allocation { groups: Vec<usize> },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// No function of that name with a body.
    NoFunction(String),
    /// Inputs that do not fit the function.
    Inputs(String),
    /// An op or type the interpreter does not model.
    Unsupported { func: String, op: String, range: TextRange, reason: String },
    /// IR the checks reject (a channel consumed twice, a port the layout lacks).
    Malformed { func: String, range: TextRange, message: String },
    /// Instances nested beyond `MAX_INSTANCE_DEPTH`.
    TooDeep { func: String, range: TextRange },
    /// The circuit was still firing after this many steps; `results` holds what had reached
    /// each operand of the top function's `end` by then.
    StepLimit { firings: u64, results: Vec<Vec<u64>> },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::NoFunction(name) => write!(f, "no function `@{name}` with a body"),
            SimError::Inputs(message) => write!(f, "{message}"),
            SimError::Unsupported { func, op, reason, .. } => {
                write!(f, "`{op}` in `@{func}` cannot be interpreted: {reason}")
            }
            SimError::Malformed { func, message, .. } => write!(f, "in `@{func}`: {message}"),
            SimError::TooDeep { func, .. } => write!(
                f,
                "instances nest deeper than {MAX_INSTANCE_DEPTH} levels at `@{func}` (recursion?)"
            ),
            SimError::StepLimit { firings, results } => {
                write!(f, "still firing after {firings} steps (a circuit that never settles?)")?;
                if !results.is_empty() {
                    let shown: Vec<String> = results
                        .iter()
                        .enumerate()
                        .map(|(i, tokens)| {
                            let list: Vec<String> = tokens.iter().map(u64::to_string).collect();
                            format!("#{i} [{}]", list.join(", "))
                        })
                        .collect();
                    write!(f, "; the results had received {}", shown.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SimError {}

/// Runs `top` on `inputs` until nothing can fire, or until its `end` has sent its results and
/// only tokens of `source`s could restart it (see the module doc); fails after `max_firings`
/// steps.
pub fn run(
    program: &Program,
    top: &str,
    inputs: &Inputs,
    max_firings: u64,
) -> Result<Outcome, SimError> {
    let mut net = build::build(program, top, inputs)?;
    let firings = schedule(&mut net, max_firings)?;
    Ok(report::outcome(program, net, firings))
}

/// Fires until quiescence; returns the number of steps. Once the top function's `end` has sent
/// its results once per invocation, no loop may start again (`Network::restarting`).
fn schedule(net: &mut build::Network, max_firings: u64) -> Result<u64, SimError> {
    let count = net.nodes.len();
    let mut eager: BTreeSet<usize> = (0..count).collect();
    let mut deferred: BTreeSet<usize> =
        (0..count).filter(|&n| net.nodes[n].kind.has_deferred()).collect();
    let mut firings = 0u64;
    // Deferred steps take turns: the first waiting node after the last one that fired, so a
    // merge that is always ready (an outer loop running ahead of its inner loops, as in
    // Dynamatic's fast token delivery) cannot starve the others.
    let mut turn = 0usize;
    loop {
        let (n, phase) = if let Some(n) = eager.pop_first() {
            (n, node::Phase::Eager)
        } else if let Some(&n) = deferred.range(turn..).next().or_else(|| deferred.first()) {
            deferred.remove(&n);
            turn = n + 1;
            (n, node::Phase::Deferred)
        } else {
            return Ok(firings);
        };
        if !net.fire(n, phase) {
            continue;
        }
        firings += 1;
        if firings > max_firings {
            return Err(SimError::StepLimit { firings: max_firings, results: net.results.clone() });
        }
        if Some(n) == net.end_node && net.ended() {
            net.frozen = true;
        }
        // Wake the node, its consumers (they got tokens) and its producers (a channel emptied,
        // which source-fed ops wait for).
        let node = &net.nodes[n];
        let mut woken = vec![n];
        woken.extend(node.outputs.iter().filter_map(|&c| net.channels[c].consumer));
        woken.extend(node.inputs.iter().filter_map(|&c| net.channels[c].producer));
        for w in woken {
            eager.insert(w);
            if net.nodes[w].kind.has_deferred() {
                deferred.insert(w);
            }
        }
    }
}

/// A channel's tokens.
type Fifo = VecDeque<node::Token>;
