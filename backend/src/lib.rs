//! The backend: from a checked `handshake.func` (or an `hw.module` holding pipelines) to
//! Verilog, with an IR-level token interpreter to check the Verilog against. No IO: callers
//! read files and write what comes back.

pub mod buffers;
pub mod capacity;
pub mod cosim;
pub mod float;
pub mod memories;
pub mod netlist;
pub mod pipeline;
pub mod program;
mod random;
pub mod rtl;
pub mod sim;
pub mod testbench;
pub mod verilog;

pub use program::{Func, HwModule, Program, Shape};
