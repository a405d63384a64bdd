//! The timing model: the built-in file against Dynamatic's numbers, width and implementation
//! choice, op names, buffers, and the errors of malformed files (`test_data/timing/bad/*.txt`,
//! each with its `.errors` snapshot; `UPDATE_EXPECT=1` refreshes them).

use std::path::{Path, PathBuf};

use hsir_analysis::dataflow::{BufferKind, BufferType, Timing};
use hsir_backend::buffers::timing::{OpTiming, PortDelays, TimingModel};

fn model() -> &'static TimingModel {
    TimingModel::builtin()
}

fn op(name: &str, width: u32) -> OpTiming {
    match model().op(name, width) {
        Some(timing) => timing,
        None => panic!("the built-in model has no section for `{name}`"),
    }
}

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/timing")
}

#[test]
fn builtin_file_parses() {
    let parsed = match TimingModel::parse(TimingModel::builtin_text()) {
        Ok(model) => model,
        Err(errors) => {
            let listed: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("the built-in timing file has errors:\n{}", listed.join("\n"));
        }
    };
    for name in parsed.op_names() {
        assert_eq!(parsed.op(name, 32), model().op(name, 32), "`{name}`");
    }
    assert_eq!(model().period(), 4.0, "Dynamatic's default target period");
}

/// Values read from Dynamatic's `data/components.json` (EPFL-LAP/dynamatic at 4263d9a7), each
/// with the entry it comes from.
#[test]
fn builtin_values_match_dynamatic() {
    // handshake.addi: delay.data {32: 1.869, 64: 2.301}, valid 1.117, ready 1.123, VR 1.125.
    let addi = op("addi", 32);
    assert_eq!(
        (addi.latency, addi.data, addi.valid, addi.ready, addi.valid_to_ready),
        (0, 1.869, 1.117, 1.123, 1.125)
    );
    assert_eq!(op("addi", 64).data, 2.301);
    // handshake.cmpi: delay.data {8: 1.59, 16: 1.456} (not monotone in the source).
    assert_eq!((op("cmpi", 8).data, op("cmpi", 16).data), (1.59, 1.456));
    // handshake.shrsi: delay.data {16: 5.234}.
    assert_eq!(op("shrsi", 16).data, 5.234);
    // handshake.muli: latency {64: {"1.0": 4}}, delay.ready 1.123, data 0.
    let muli = op("muli", 32);
    assert_eq!((muli.latency, muli.data, muli.ready), (4, 0.0, 1.123));
    assert_eq!((muli.in_port, muli.out_port), (PortDelays::default(), PortDelays::default()));
    // handshake.divsi, handshake.divui, handshake.remsi: 35 cycles.
    assert_eq!(
        (op("divsi", 32).latency, op("divui", 32).latency, op("remsi", 32).latency),
        (35, 35, 35)
    );
    // handshake.mux: VR, CV, CR and VD all 1.117, VC 0.
    let mux = op("mux", 32);
    assert_eq!(
        (
            mux.valid_to_ready,
            mux.cond_to_valid,
            mux.cond_to_ready,
            mux.valid_to_data,
            mux.valid_to_cond
        ),
        (1.117, 1.117, 1.117, 1.117, 0.0)
    );
    // handshake.select: VR 1.676, CV 1.117, CR 1.676, ready 1.125.
    let select = op("select", 32);
    assert_eq!(
        (select.valid_to_ready, select.cond_to_valid, select.cond_to_ready, select.ready),
        (1.676, 1.117, 1.676, 1.125)
    );
    // handshake.cond_br: valid 1.117, ready 1.125, VR 1.121, CV 1.117, CR 1.125.
    let cond_br = op("cond_br", 32);
    assert_eq!(
        (
            cond_br.valid,
            cond_br.ready,
            cond_br.valid_to_ready,
            cond_br.cond_to_valid,
            cond_br.cond_to_ready
        ),
        (1.117, 1.125, 1.121, 1.117, 1.125)
    );
    // handshake.fork: valid 0.1, ready 0.1; handshake.control_merge: valid 1.126.
    assert_eq!((op("fork", 1).valid, op("fork", 1).ready), (0.1, 0.1));
    assert_eq!(op("control_merge", 32).valid, 1.126);
    // handshake.load: latency 1, data 1.128; handshake.store: data 0.672, valid 1.397,
    // ready 1.4, VR 1.409; handshake.end: ready 1.397, VR 1.409.
    assert_eq!((op("load", 32).latency, op("load", 32).data), (1, 1.128));
    let store = op("store", 32);
    assert_eq!(
        (store.data, store.valid, store.ready, store.valid_to_ready),
        (0.672, 1.397, 1.4, 1.409)
    );
    assert_eq!((op("end", 0).ready, op("end", 0).valid_to_ready), (1.397, 1.409));
    // handshake.sitofp: latency {64: {"1.190": 5}}.
    assert_eq!(op("sitofp", 32).latency, 5);
    // handshake.addf.vivado 9, mulf.vivado 5, divf.vivado 29 cycles.
    assert_eq!(
        (
            op("addf.vivado", 32).latency,
            op("mulf.vivado", 32).latency,
            op("divf.vivado", 64).latency
        ),
        (9, 5, 29)
    );
}

/// FloPoCo units list several implementations per width; 4 ns picks as Dynamatic does.
#[test]
fn float_latencies_follow_the_period() {
    // handshake.addf.flopoco at 32 bits: 2.798 ns -> 36, 2.922 -> 10, 3.649333 -> 6;
    // at 64 bits: 2.705 -> 12, 5.091333 -> 7, 9.068 -> 2.
    assert_eq!((op("addf", 32).latency, op("addf", 64).latency), (6, 12));
    assert_eq!(model().op_at_period("addf", 32, 3.0).map(|t| t.latency), Some(10));
    assert_eq!(model().op_at_period("addf", 64, 10.0).map(|t| t.latency), Some(2));
    // handshake.mulf.flopoco: 32 bits 2.875333 -> 2; 64 bits 2.758 -> 6 (4.242333 is over).
    assert_eq!((op("mulf", 32).latency, op("mulf", 64).latency), (2, 6));
    // handshake.divf.flopoco: 32 bits 3.812 -> 15; at 64 bits nothing fits 4 ns, so the
    // fastest (4.345 -> 63).
    assert_eq!((op("divf", 32).latency, op("divf", 64).latency), (15, 63));
    // handshake.cmpf.flopoco: {32: 0, 64: 1}.
    assert_eq!((op("cmpf", 32).latency, op("cmpf", 64).latency), (0, 1));
    assert_eq!(op("subf", 32), op("addf", 32), "subf.flopoco has addf's numbers");
}

#[test]
fn widths_select_the_next_listed_or_the_largest() {
    // addi lists 1 2 4 8 16 32 64.
    let data: Vec<f64> = [1, 5, 32, 33, 64, 128].iter().map(|&w| op("addi", w).data).collect();
    assert_eq!(data, [1.117, 1.545, 1.869, 2.301, 2.301, 2.301]);
    // andi lists 32 and 64 only.
    let data: Vec<f64> = [1, 5, 32, 33, 64, 128].iter().map(|&w| op("andi", w).data).collect();
    assert_eq!(data, [1.117, 1.117, 1.117, 1.128, 1.128, 1.128]);
    // Latency by width: addf lists 32 and 64.
    let latency: Vec<u32> =
        [1, 5, 32, 33, 64, 128].iter().map(|&w| op("addf", w).latency).collect();
    assert_eq!(latency, [6, 6, 6, 12, 12, 12]);
    let latency: Vec<u32> =
        [1, 5, 32, 33, 64, 128].iter().map(|&w| op("cmpf", w).latency).collect();
    assert_eq!(latency, [0, 0, 0, 1, 1, 1]);
}

#[test]
fn op_names_with_and_without_dialect() {
    for (written, key) in [
        ("arith.addi", "addi"),
        ("handshake.addi", "addi"),
        ("handshake.cond_br", "cond_br"),
        ("arith.select", "select"),
        ("handshake.select", "select"),
        ("arith.constant", "constant"),
        ("handshake.buffer", "buffer"),
        ("arith.cmpf", "cmpf"),
    ] {
        assert_eq!(model().op(written, 32), model().op(key, 32), "`{written}`");
        assert_eq!(model().source(written), model().source(key), "`{written}`");
    }
    assert!(model().op("dataflow.stream", 32).is_some());
    // Other dialects are not stripped.
    assert_eq!(model().op("comb.add", 32), None);
    assert_eq!(model().op("dataflow.addi", 32), None);
    assert_eq!(model().op("no_such_op", 32), None);
}

/// Every op of the op table has a section, in every spelling hsir accepts (buffers have their
/// own sections by type, pipeline ops are not dataflow units); and every section names an op
/// of the table (or an implementation variant of one).
#[test]
fn every_known_op_has_a_section() {
    use hsir_analysis::ops::{Dialect, Family, OpKind};
    let mut missing = Vec::new();
    let mut checked = 0;
    for kind in OpKind::all() {
        let def = kind.def();
        if kind.is_buffer() || def.family == Family::Pipeline {
            continue;
        }
        for &(dialect, short) in def.names {
            checked += 1;
            let names: Vec<String> = match dialect {
                Dialect::Handshake => vec![short.to_string(), format!("handshake.{short}")],
                other => vec![format!("{}{short}", other.prefix())],
            };
            for name in names {
                assert_eq!(OpKind::from_name(&name), Some(kind), "`{name}`");
                if model().op(&name, 32).is_none() {
                    missing.push(name);
                }
            }
        }
    }
    assert!(missing.is_empty(), "no section for {missing:?}");
    assert!(checked > 80, "only {checked} ops listed");

    let strange: Vec<&str> = model()
        .op_names()
        .filter(|name| {
            let base = name.strip_suffix(".vivado").or(name.strip_suffix(".2025")).unwrap_or(name);
            OpKind::from_name(base).is_none() && *name != "load.lsq"
        })
        .collect();
    assert!(strange.is_empty(), "sections for ops hsir does not know: {strange:?}");
}

#[test]
fn every_section_says_where_its_numbers_come_from() {
    for name in model().op_names() {
        let source = model().source(name).unwrap_or_default();
        assert!(
            source.starts_with("dynamatic components.json handshake.")
                || source.starts_with("dynamatic data/vhdl/arith/")
                || source.starts_with("assumption: "),
            "`{name}`: {source:?}"
        );
    }
    assert_eq!(model().source("addi"), Some("dynamatic components.json handshake.addi"));
    assert_eq!(model().source("addf"), Some("dynamatic components.json handshake.addf.flopoco"));
    assert!(model().fallback_source().starts_with("assumption: "));
}

#[test]
fn fallback_and_derived_sections() {
    let zero = OpTiming {
        latency: 0,
        data: 0.0,
        valid: 0.0,
        ready: 0.0,
        valid_to_ready: 0.0,
        cond_to_valid: 0.0,
        cond_to_ready: 0.0,
        valid_to_cond: 0.0,
        valid_to_data: 0.0,
        in_port: PortDelays::default(),
        out_port: PortDelays::default(),
    };
    assert_eq!(model().fallback(), zero);
    // remui is like remsi, maxnumf like maximumf: the same numbers, their own source.
    assert_eq!(op("remui", 32), op("remsi", 32));
    assert_eq!(op("maxnumf", 64), op("maximumf", 64));
    assert_ne!(model().source("remui"), model().source("remsi"));
    // load.lsq: load's delays, 3 more cycles.
    let lsq = op("load.lsq", 32);
    assert_eq!((lsq.latency, lsq.data), (op("load", 32).latency + 3, op("load", 32).data));
}

#[test]
fn buffer_latencies_agree_with_the_analysis() {
    for ty in BufferType::ALL {
        assert_eq!(model().buffer_latencies(ty), ty.timing(), "{}", ty.name());
        let timing = model().buffer(ty, 32);
        assert_eq!(timing.latency, ty.timing().d, "{}", ty.name());
        assert_eq!(model().buffer_kind(&BufferKind::Known(ty), 32), Some(timing));
        if let Some(legacy) = ty.legacy_name() {
            let kind = BufferKind::Legacy(ty, legacy.to_string());
            assert_eq!(model().buffer_kind(&kind, 32), Some(timing));
        }
    }
    assert_eq!(
        model().buffer_kind_latencies(&BufferKind::CirctSeq),
        Some(Timing { d: 1, v: 1, r: 1 })
    );
    assert_eq!(
        model().buffer_kind_latencies(&BufferKind::CirctFifo),
        Some(Timing { d: 1, v: 1, r: 0 })
    );
    assert_eq!(model().buffer_kind(&BufferKind::Unknown("X".into()), 32), None);
    assert_eq!(model().buffer_kind(&BufferKind::Missing, 32), None);
}

/// `test_data/timing/minimal.txt` uses every kind of field.
#[test]
fn small_file_reads_every_field() {
    let text = std::fs::read_to_string(test_data().join("minimal.txt")).unwrap_or_default();
    let model = match TimingModel::parse(&text) {
        Ok(model) => model,
        Err(errors) => panic!("{errors:?}"),
    };
    assert_eq!(model.period(), 3.0);
    let at = |width: u32| model.op("p", width).map(|t| t.latency);
    // 32 bits and below: no latency; above: 10@2.5, 3@3.5 or 2@4.5 by period.
    assert_eq!((at(8), at(32), at(33), at(1000)), (Some(0), Some(0), Some(10), Some(10)));
    let period = |p: f64| model.op_at_period("p", 64, p).map(|t| t.latency);
    assert_eq!(
        (period(1.0), period(3.0), period(4.0), period(5.0)),
        (Some(10), Some(10), Some(3), Some(2))
    );

    let p8 = model.op("p", 8).unwrap_or(model.fallback());
    assert_eq!((p8.data, p8.valid, p8.ready), (0.5, 1.0, 2.0));
    assert_eq!(
        (p8.valid_to_ready, p8.cond_to_valid, p8.cond_to_ready, p8.valid_to_cond, p8.valid_to_data),
        (0.1, 0.2, 0.3, 0.4, 0.5)
    );
    // No latency, no registers: no port delays.
    assert_eq!((p8.in_port, p8.out_port), (PortDelays::default(), PortDelays::default()));
    let p64 = model.op("p", 64).unwrap_or(model.fallback());
    assert_eq!(p64.data, 1.5);
    assert_eq!(p64.in_port, PortDelays { data: 0.25, valid: 0.75, ready: 1.25 });
    assert_eq!(p64.out_port, PortDelays { data: 0.375, valid: 0.625, ready: 0.875 });

    // `[op handshake.q]` is filed as `q`, like p with a latency of its own.
    let q16 = model.op("q", 16).unwrap_or(model.fallback());
    assert_eq!((q16.latency, q16.data, q16.valid_to_data), (2, 1.5, 0.5));
    assert_eq!(q16.out_port, PortDelays { data: 0.125, valid: 0.625, ready: 0.875 });
    assert_eq!(
        model.source("handshake.q"),
        Some("assumption: like p, but pipelined at every width")
    );
    // A chain of `like`s: DVR is like DV, which is like FIFO_BREAK_NONE.
    assert_eq!(model.buffer_latencies(BufferType::OneSlotBreakDvr), Timing { d: 1, v: 1, r: 1 });
    assert_eq!(model.op("unlisted", 32), None);
}

fn bad_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(test_data().join("bad"))
        .map(|dir| dir.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    files
}

/// Every malformed file is refused with all its problems, each on its line.
#[test]
fn malformed_files_report_every_error() {
    let files = bad_files();
    assert!(files.len() >= 10, "test_data/timing/bad has {} files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let errors = match TimingModel::parse(&text) {
            Ok(_) => panic!("{} parses", path.display()),
            Err(errors) => errors,
        };
        let lines = text.lines().count().max(1) as u32;
        for error in &errors {
            assert!((1..=lines).contains(&error.line), "{}: {error}", path.display());
        }
        let listed: Vec<String> = errors.iter().map(|e| format!("{e}\n")).collect();
        expect_test::expect_file![path.with_extension("errors")].assert_eq(&listed.concat());
    }
}

/// Each line of the built-in file deleted, or given a negative value: the parser
/// answers without panicking, and its errors name lines of the text.
#[test]
fn edited_builtin_lines_never_panic() {
    let lines: Vec<&str> = TimingModel::builtin_text().lines().collect();
    let mut refused = 0;
    for at in 0..lines.len() {
        let mut variants = Vec::new();
        let mut deleted = lines.clone();
        deleted.remove(at);
        variants.push(deleted.join("\n"));
        let negative = match lines[at].split_once('=') {
            Some((key, _)) => format!("{key}= -1"),
            None => "-1".to_string(),
        };
        let mut negated = lines.clone();
        negated[at] = &negative;
        variants.push(negated.join("\n"));
        for text in variants {
            if let Err(errors) = TimingModel::parse(&text) {
                refused += 1;
                let count = text.lines().count().max(1) as u32;
                assert!(errors
                    .iter()
                    .all(|e| (1..=count).contains(&e.line) && !e.message.is_empty()));
            }
        }
    }
    // Every `= -1` on a field line is refused, so far more than a few are.
    assert!(refused > lines.len() / 2, "only {refused} edits were refused");
}

/// Placement reads the section the RTL is built from: a float unit of Dynamatic's 2025 syntax
/// has that era's fixed latency (`addf.2025`: 9 cycles, where today's FloPoCo unit at 4 ns has
/// 6), and a load an LSQ serves has the LSQ's cycles (`load.lsq`), in both the 2025 and 2026
/// syntax.
#[test]
fn placement_units_take_the_section_of_their_era_and_interface() {
    let era_2025 = r#"
handshake.func @f(%a: memref<4xf32>, %x: !handshake.channel<f32>, %i: !handshake.channel<i32>, %start: !handshake.control<>, %mem_start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["a", "x", "i", "start", "mem_start"], resNames = ["out0", "end", "a_end"]} {
  %0:2 = lsq[%a : memref<4xf32>] (%mem_start, %start, %addressResult, %start) {groupSizes = [1 : i32], handshake.name = "lsq0"} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<f32>, !handshake.control<>)
  %addressResult, %dataResult = load[%i] %0#0 {handshake.name = "load0"} : <i32>, <f32>
  %1 = addf %dataResult, %x {handshake.name = "addf0"} : <f32>
  end %1, %start, %0#1 : <f32>, <>, <>
}
"#;
    let program = hsir_backend::Program::from_parse(hsir_parser::parse(era_2025));
    let func = &program.funcs[0];
    assert_eq!(func.era, hsir_analysis::ops::Era::Dynamatic2025);
    let (graph, _) = hsir_backend::buffers::graph::Graph::build(func, model(), false, 4.0);
    let latency = |label: &str| {
        let unit = graph.units.iter().find(|u| u.label == label);
        unit.unwrap_or_else(|| panic!("no unit {label}")).timing.latency
    };
    assert_eq!(latency("addf0"), op("addf.2025", 32).latency);
    assert_eq!(latency("addf0"), 9);
    assert_eq!(op("addf", 32).latency, 6);
    assert_eq!(latency("load0"), op("load.lsq", 32).latency);
    assert_eq!(latency("load0"), 4);
}

/// The `overhead` setting: 0 when a file sets none (the plain sum), the value written
/// otherwise, and the built-in file's calibrated 0.722 ns; the bad values are in
/// `test_data/timing/bad/overhead*.txt`.
#[test]
fn overhead_setting() {
    assert_eq!(model().overhead(), 0.722, "the calibrated built-in overhead");
    let minimal = std::fs::read_to_string(test_data().join("minimal.txt")).unwrap_or_default();
    let plain = TimingModel::parse(&minimal).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(plain.overhead(), 0.0, "no setting, no overhead");
    assert_eq!(plain.path([1.5, 2.0]), 3.5, "the plain sum");
    let text = minimal.replacen("period = 3.0", "period = 3.0\noverhead = 0.5", 1);
    let model = TimingModel::parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(model.overhead(), 0.5);
    assert_eq!(model.path([1.5, 2.0]), 0.5 + 1.0 + 1.5);
    assert_eq!(model.path([2.0]), 2.0, "one unit costs its characterized delay");
    assert_eq!(model.excess(0.25), 0.0, "a unit faster than the overhead adds nothing");
    // Every other number reads as without the setting.
    assert_eq!(model.op("p", 64), plain.op("p", 64));
    // An overhead as large as the period leaves a path no time.
    let text = minimal.replacen("period = 3.0", "period = 3.0\noverhead = 3", 1);
    let errors = TimingModel::parse(&text).err().unwrap_or_default();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].message,
        "`overhead` (3 ns) must be less than the period (3 ns): every register-to-register path pays it once"
    );
}
