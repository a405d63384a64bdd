//! Buffer placement: what it needs to know about the units of a circuit.

pub mod timing;
