//! `hw.module`s holding CIRCT `pipeline.scheduled` pipelines, lowered to Verilog-2005, with a
//! cycle-accurate evaluator to check the Verilog against and a testbench generator that does.
//!
//! - `design`: reads a module (ports, ops, stages) once for both sides, with every problem that
//!   stops them as a diagnostic; `rules` holds the checks that need the whole module read.
//! - `verilog`: register materialization and stage control, as CIRCT's
//!   `pipeline-explicit-regs` and `lower-pipeline-to-hw` do them, written out as Verilog.
//! - `eval`: the reference. It follows tokens through the stages from the IR's meaning, without
//!   materializing registers, so it does not share the lowering's mistakes.
//! - `testbench`: random stimuli, the evaluator's answers, and a Verilog testbench comparing the
//!   two every cycle.

mod design;
pub mod eval;
mod rules;
mod testbench;
mod verilog;

use hsir_analysis::Diagnostic;

use crate::program::HwModule;

pub use testbench::testbench;

/// A port of the generated Verilog module, in the `hw.module`'s order (inputs, then outputs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    /// The Verilog name: the `hw.module`'s port name made an identifier.
    pub name: String,
    pub width: u32,
    pub input: bool,
    /// The `!seq.clock` input.
    pub clock: bool,
    /// An input used as the reset of a pipeline or a register.
    pub reset: bool,
}

/// One `hw.module`, lowered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineVerilog {
    /// The Verilog module name: the `hw.module`'s symbol made an identifier.
    pub name: String,
    pub verilog: String,
    pub ports: Vec<Port>,
}

/// Lowers an `hw.module` (with or without pipelines) to one Verilog-2005 module. Unsupported
/// ops (HS5001), types (HS5003) and pipelines the lowering cannot order or time come back as
/// diagnostics, all of them.
pub fn lower(module: &HwModule) -> Result<PipelineVerilog, Vec<Diagnostic>> {
    let design = design::read(module)?;
    let verilog = verilog::lower(&design);
    Ok(PipelineVerilog { name: design.name.clone(), verilog, ports: ports(&design) })
}

fn ports(design: &design::Design) -> Vec<Port> {
    design
        .ports
        .iter()
        .map(|p| Port {
            name: p.name.clone(),
            width: p.width,
            input: p.input,
            clock: p.clock,
            reset: p.reset,
        })
        .collect()
}
