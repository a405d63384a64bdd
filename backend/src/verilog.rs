//! Verilog text for a netlist: one module per lowered function, instantiating the component
//! library (`backend/rtl/`), whose modules are embedded here.

use std::fmt::Write as _;

use crate::netlist::{Cell, Module, Netlist, Pins};

macro_rules! library {
    ($($name:literal),* $(,)?) => {
        /// Every library module: `(name, Verilog text)`.
        pub const LIBRARY: &[(&str, &str)] = &[
            $(($name, include_str!(concat!("../rtl/", $name, ".v"))),)*
        ];
    };
}

library!(
    "hsir_fork",
    "hsir_lazy_fork",
    "hsir_join",
    "hsir_merge",
    "hsir_mux",
    "hsir_control_merge",
    "hsir_cond_br",
    "hsir_sink",
    "hsir_source",
    "hsir_constant",
    "hsir_one_slot_break_dv",
    "hsir_one_slot_break_r",
    "hsir_one_slot_break_dvr",
    "hsir_fifo_break_dv",
    "hsir_fifo_break_none",
    "hsir_shift_reg_break_dv",
    "hsir_seq_stage",
    "hsir_binary",
    "hsir_unary",
    "hsir_select",
    "hsir_wait",
    "hsir_load",
    "hsir_store",
    "hsir_memory",
    "hsir_ext_memory",
    "hsir_mc_control",
    "hsir_stream",
    "hsir_gate",
    "hsir_carry",
    "hsir_invariant",
);

/// The library modules a netlist uses, concatenated.
pub fn library_text(netlist: &Netlist) -> String {
    let mut out = String::from("// hsir component library (the modules this design uses).\n");
    for name in netlist.library_modules() {
        if let Some((_, text)) = LIBRARY.iter().find(|(n, _)| *n == name) {
            out.push('\n');
            out.push_str(text);
        }
    }
    out
}

/// The design's own modules, callees first.
pub fn design_text(netlist: &Netlist, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "// {line}");
    }
    for module in &netlist.modules {
        out.push('\n');
        module_text(module, &mut out);
    }
    out
}

fn range(width: u32) -> String {
    if width <= 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

fn module_text(module: &Module, out: &mut String) {
    let mut ports: Vec<String> = vec!["input clk".into(), "input rst".into()];
    for p in &module.inputs {
        if !p.shape.control {
            ports.push(format!("input {}{}_data", range(p.shape.bits()), p.name));
        }
        ports.push(format!("input {}_valid", p.name));
        ports.push(format!("output {}_ready", p.name));
    }
    for p in &module.outputs {
        if !p.shape.control {
            ports.push(format!("output {}{}_data", range(p.shape.bits()), p.name));
        }
        ports.push(format!("output {}_valid", p.name));
        ports.push(format!("input {}_ready", p.name));
    }
    for m in &module.memories {
        let n = &m.name;
        ports.push(format!("output {n}_loadEn"));
        ports.push(format!("output {}{n}_loadAddr", range(m.addr_width)));
        ports.push(format!("input {}{n}_loadData", range(m.width)));
        ports.push(format!("output {n}_storeEn"));
        ports.push(format!("output {}{n}_storeAddr", range(m.addr_width)));
        ports.push(format!("output {}{n}_storeData", range(m.width)));
    }
    let _ = writeln!(out, "// `@{}`", module.func);
    let _ = writeln!(out, "module {} (", module.name);
    let _ = writeln!(out, "  {}\n);", ports.join(",\n  "));
    // Wires of every channel that is not an input port.
    let input_channels: Vec<usize> = module.inputs.iter().map(|p| p.channel).collect();
    for (id, c) in module.channels.iter().enumerate() {
        let label = if c.label.is_empty() { String::new() } else { format!("  // {}", c.label) };
        if input_channels.contains(&id) {
            if c.shape.control {
                let _ = writeln!(out, "  wire {}_data = 1'b0;{label}", c.name);
            }
            continue;
        }
        let _ = writeln!(out, "  wire {}{}_data;{label}", range(c.shape.bits()), c.name);
        let _ = writeln!(out, "  wire {}_valid;", c.name);
        let _ = writeln!(out, "  wire {}_ready;", c.name);
        if !c.data_driven {
            let _ = writeln!(out, "  assign {}_data = {}'d0;", c.name, c.shape.bits());
        }
    }
    for (left, right) in &module.assigns {
        let _ = writeln!(out, "  assign {left} = {right};");
    }
    for p in &module.outputs {
        let c = &module.channels[p.channel];
        if !p.shape.control {
            let _ = writeln!(out, "  assign {}_data = {}_data;", p.name, c.name);
        }
        let _ = writeln!(out, "  assign {}_valid = {}_valid;", p.name, c.name);
        let _ = writeln!(out, "  assign {}_ready = {}_ready;", c.name, p.name);
    }
    for cell in &module.cells {
        cell_text(module, cell, out);
    }
    if !module.unused.is_empty() {
        // Read nowhere by design; one wire named as Verilator's lint expects says so.
        let _ = writeln!(out, "  wire _unused = &{{1'b0, {}, 1'b0}};", module.unused.join(", "));
    }
    let _ = writeln!(out, "endmodule");
}

fn cell_text(module: &Module, cell: &Cell, out: &mut String) {
    let params = if cell.params.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = cell.params.iter().map(|(k, v)| format!(".{k}({v})")).collect();
        format!(" #({})", list.join(", "))
    };
    let mut conns: Vec<String> = Vec::new();
    if cell.clocked {
        conns.push(".clk(clk)".into());
        conns.push(".rst(rst)".into());
    }
    for pins in &cell.pins {
        connect(module, pins, &mut conns);
    }
    for (port, expr) in &cell.raw {
        conns.push(format!(".{port}({expr})"));
    }
    let _ = writeln!(
        out,
        "  {}{} {} (\n    {}\n  );",
        cell.module,
        params,
        cell.name,
        conns.join(",\n    ")
    );
}

fn connect(module: &Module, pins: &Pins, conns: &mut Vec<String>) {
    let names: Vec<&str> =
        pins.channels.iter().map(|&c| module.channels[c].name.as_str()).collect();
    // Channel `i` at bits `i*W`: the highest index comes first in a concatenation.
    let join = |suffix: &str| {
        if names.len() == 1 {
            format!("{}_{suffix}", names[0])
        } else {
            let parts: Vec<String> = names.iter().rev().map(|n| format!("{n}_{suffix}")).collect();
            format!("{{{}}}", parts.join(", "))
        }
    };
    let p = &pins.port;
    if pins.data {
        conns.push(format!(".{p}_data({})", join("data")));
    }
    conns.push(format!(".{p}_valid({})", join("valid")));
    conns.push(format!(".{p}_ready({})", join("ready")));
}
