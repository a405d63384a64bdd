//! Verilog text for a netlist: one module per lowered function, instantiating the component
//! library (`backend/rtl/`), whose modules are embedded here.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use hsir_analysis::ops::OpKind;

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
    "hsir_lsq",
    "hsir_stream",
    "hsir_gate",
    "hsir_carry",
    "hsir_invariant",
    "hsir_float_binary",
    "hsir_float_unary",
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

/// The design's own modules, callees first, after the typed modules they instantiate.
///
/// Cells do not instantiate the parameterised library modules directly: each distinct use gets
/// a module of its own whose name encodes the op, every port's type and the settings that change
/// its behaviour (`hsir_join__ctrl_i32_to_ctrl`, `hsir_fifo_break_dv_s3__i32_to_i32`), which
/// instantiates the library module with its parameters. So two different units never share a
/// name (CIRCT 1.62 gives `join (none, i32)` and `join (i32, none)` one module name and fails),
/// and the netlist reads like the IR.
pub fn design_text(netlist: &Netlist, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "// {line}");
    }
    // Per module (on every core): its text, and the typed modules its cells name.
    let parts = crate::program::par_map(&netlist.modules, |module| {
        let mut typed: BTreeMap<String, String> = BTreeMap::new();
        let names: Vec<Option<String>> =
            module.cells.iter().map(|c| typed_name(module, c)).collect();
        for (cell, name) in module.cells.iter().zip(&names) {
            if let Some(name) = name {
                if !typed.contains_key(name) {
                    typed.insert(name.clone(), typed_module(module, cell, name));
                }
            }
        }
        let mut text = String::new();
        module_text(module, &names, &mut text);
        (typed, text)
    });
    let mut typed: BTreeMap<&str, &str> = BTreeMap::new();
    for (t, _) in &parts {
        for (name, text) in t {
            typed.entry(name).or_insert(text);
        }
    }
    for text in typed.values() {
        out.push('\n');
        out.push_str(text);
    }
    for (_, text) in &parts {
        out.push('\n');
        out.push_str(text);
    }
    out
}

/// The name a cell's typed module gets; `None` for cells that instantiate a design module.
pub fn typed_name(module: &Module, cell: &Cell) -> Option<String> {
    // Library modules are the `hsir_*` ones: a function's module never is (`module_name`).
    let kind = cell.module.strip_prefix("hsir_")?;
    // Port types, appended to `out`: `ctrl` or `i<bits>`, `_`-separated, or `none`.
    let side = |output: bool, out: &mut String| {
        let mut any = false;
        for p in cell.pins.iter().filter(|p| p.output == output) {
            for &c in &p.channels {
                if any {
                    out.push('_');
                }
                any = true;
                let shape = module.channels[c].shape;
                if shape.control {
                    out.push_str("ctrl");
                } else if float_port(cell, &p.port) {
                    let _ = write!(out, "f{}", shape.data);
                } else {
                    let _ = write!(out, "i{}", shape.data);
                }
            }
        }
        if !any {
            out.push_str("none");
        }
    };
    let mut settings = Vec::new();
    let param = |key: &str| cell.params.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    if let Some(op) = param("OP") {
        settings.push(op.trim_matches('"').to_string());
    }
    if let Some(n) = param("LATENCY") {
        settings.push(format!("l{n}"));
    }
    if let Some(v) = param("VALUE") {
        settings.push(format!("v{}", literal_value(v)));
    }
    if let Some(n) = param("SLOTS") {
        settings.push(format!("s{n}"));
    }
    if param("INIT_VALID") == Some("1") {
        settings.push(format!("init{}", literal_value(param("INIT_DATA").unwrap_or("0"))));
    }
    if let Some(layout) = param("LAYOUT") {
        // An LSQ's groups (`lls_ls`): letters, digits and `_` only, so a name's part as it is.
        settings.push(layout.trim_matches('"').to_string());
    }
    if let Some(n) = param("DEPTH") {
        settings.push(format!("d{n}"));
    }
    for key in ["STEP_OP", "COND"] {
        if let Some(op) = param(key) {
            let word = match op.trim_matches('"') {
                "+=" => "add",
                "-=" => "sub",
                "*=" => "mul",
                "/=" => "div",
                "<<=" => "shl",
                ">>=" => "shr",
                "<" => "lt",
                "<=" => "le",
                ">" => "gt",
                ">=" => "ge",
                "!=" => "ne",
                other => other,
            };
            settings.push(word.to_string());
        }
    }
    // Memories: address and word widths are on BRAM ports, not channels.
    if !cell.raw.is_empty() {
        if let (Some(w), Some(aw)) = (param("W"), param("AW")) {
            settings.push(format!("w{w}a{aw}"));
        }
    }
    let mut name = format!("hsir_{kind}");
    for s in &settings {
        name.push('_');
        name.push_str(s);
    }
    name.push_str("__");
    side(false, &mut name);
    name.push_str("_to_");
    side(true, &mut name);
    Some(name)
}

/// Whether a port of a float unit carries a float (named `f32` in typed module names): the
/// operands of `hsir_float_binary` and its result unless it compares; the float sides of
/// `hsir_float_unary` (those with exponent bits).
fn float_port(cell: &Cell, port: &str) -> bool {
    let param = |key: &str| cell.params.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    match (cell.module.as_ref(), port) {
        // A comparison's `OP` is `cmpf_<predicate>`.
        ("hsir_float_binary", "out") => {
            !param("OP").is_some_and(|op| op.contains(OpKind::CmpF.key()))
        }
        ("hsir_float_binary", _) => true,
        ("hsir_float_unary", "in") => param("IEW") != Some("0"),
        ("hsir_float_unary", _) => param("OEW") != Some("0"),
        _ => false,
    }
}

/// `32'd42` → `42`, `8'h2a` → `2a`.
fn literal_value(v: &str) -> String {
    v.rsplit(['d', 'h']).next().unwrap_or(v).to_string()
}

/// Directions and widths of the BRAM ports of a memory cell.
fn raw_port(cell: &Cell, port: &str) -> (bool, u32) {
    let param = |key: &str| {
        cell.params
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.parse::<u32>().ok())
            .unwrap_or(1)
    };
    match port {
        "loadEn" | "storeEn" => (true, 1),
        "loadAddr" | "storeAddr" => (true, param("AW")),
        "loadData" => (false, param("W")),
        "storeData" => (true, param("W")),
        _ => (false, 1),
    }
}

/// The typed module of a library cell: its ports, and the library module inside with its
/// parameters.
fn typed_module(module: &Module, cell: &Cell, name: &str) -> String {
    let mut ports: Vec<String> = Vec::new();
    let mut conns: Vec<String> = Vec::new();
    if cell.clocked {
        ports.push("input clk".into());
        ports.push("input rst".into());
        conns.push(".clk(clk)".into());
        conns.push(".rst(rst)".into());
    }
    for pins in &cell.pins {
        let n = pins.channels.len() as u32;
        let bits = pins.channels.first().map_or(1, |&c| module.channels[c].shape.bits());
        let (fwd, back) = if pins.output { ("output", "input") } else { ("input", "output") };
        let p = &pins.port;
        if pins.data {
            ports.push(format!("{fwd} {}{p}_data", range(n * bits)));
            conns.push(format!(".{p}_data({p}_data)"));
        }
        let group = if pins.group { range(n) } else { String::new() };
        ports.push(format!("{fwd} {group}{p}_valid"));
        ports.push(format!("{back} {group}{p}_ready"));
        conns.push(format!(".{p}_valid({p}_valid)"));
        conns.push(format!(".{p}_ready({p}_ready)"));
    }
    for (port, _) in &cell.raw {
        let (output, width) = raw_port(cell, port);
        ports.push(format!("{} {}{port}", if output { "output" } else { "input" }, range(width)));
        conns.push(format!(".{port}({port})"));
    }
    let params: Vec<String> = cell.params.iter().map(|(k, v)| format!(".{k}({v})")).collect();
    let params =
        if params.is_empty() { String::new() } else { format!(" #({})", params.join(", ")) };
    let mut text = String::new();
    let _ = writeln!(text, "module {name} (\n  {}\n);", ports.join(",\n  "));
    let _ = writeln!(text, "  {}{params} unit (\n    {}\n  );", cell.module, conns.join(",\n    "));
    let _ = writeln!(text, "endmodule");
    text
}

fn range(width: u32) -> String {
    if width <= 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

fn module_text(module: &Module, typed: &[Option<String>], out: &mut String) {
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
    // Wires of every channel that is not an input port (appended piece by piece: a design has
    // tens of thousands of them).
    let mut is_input = vec![false; module.channels.len()];
    for p in &module.inputs {
        is_input[p.channel] = true;
    }
    for (id, c) in module.channels.iter().enumerate() {
        let name = c.name.as_str();
        let label = |out: &mut String| {
            if !c.label.is_empty() {
                out.push_str("  // ");
                out.push_str(&c.label);
            }
            out.push('\n');
        };
        if is_input[id] {
            if c.shape.control {
                out.push_str("  wire ");
                out.push_str(name);
                out.push_str("_data = 1'b0;");
                label(out);
            }
            continue;
        }
        out.push_str("  wire ");
        out.push_str(&range(c.shape.bits()));
        out.push_str(name);
        out.push_str("_data;");
        label(out);
        if c.raw {
            continue;
        }
        out.push_str("  wire ");
        out.push_str(name);
        out.push_str("_valid, ");
        out.push_str(name);
        out.push_str("_ready;\n");
        if !c.data_driven {
            let _ = writeln!(out, "  assign {name}_data = {}'d0;", c.shape.bits());
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
    for (cell, typed) in module.cells.iter().zip(typed) {
        cell_text(module, cell, typed.as_deref(), out);
    }
    if !module.unused.is_empty() {
        // Read nowhere by design; one wire named as Verilator's lint expects says so.
        let _ = writeln!(out, "  wire _unused = &{{1'b0, {}, 1'b0}};", module.unused.join(", "));
    }
    let _ = writeln!(out, "endmodule");
}

fn cell_text(module: &Module, cell: &Cell, typed: Option<&str>, out: &mut String) {
    out.push_str("  ");
    out.push_str(typed.unwrap_or(&cell.module));
    if typed.is_none() && !cell.params.is_empty() {
        out.push_str(" #(");
        for (i, (k, v)) in cell.params.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, ".{k}({v})");
        }
        out.push(')');
    }
    out.push(' ');
    out.push_str(&cell.name);
    out.push_str(" (");
    let mut first = true;
    let mut next = |out: &mut String| {
        out.push_str(if first { "\n    " } else { ",\n    " });
        first = false;
    };
    if cell.clocked {
        next(out);
        out.push_str(".clk(clk)");
        next(out);
        out.push_str(".rst(rst)");
    }
    for pins in &cell.pins {
        let p = &pins.port;
        let suffixes: &[&str] =
            if pins.data { &["data", "valid", "ready"] } else { &["valid", "ready"] };
        for suffix in suffixes {
            next(out);
            out.push('.');
            out.push_str(p);
            out.push('_');
            out.push_str(suffix);
            out.push('(');
            connect(module, pins, suffix, out);
            out.push(')');
        }
    }
    for (port, expr) in &cell.raw {
        next(out);
        let _ = write!(out, ".{port}({expr})");
    }
    out.push_str("\n  );\n");
}

fn connect(module: &Module, pins: &Pins, suffix: &str, out: &mut String) {
    // Channel `i` at bits `i*W`: the highest index comes first in a concatenation.
    let many = pins.channels.len() > 1;
    if many {
        out.push('{');
    }
    for (i, &c) in pins.channels.iter().rev().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&module.channels[c].name);
        out.push('_');
        out.push_str(suffix);
    }
    if many {
        out.push('}');
    }
}
