//! Focused tests of the interpreter's semantics, on small inline designs.

#[path = "../../test-support/shared.rs"]
mod shared;

use hsir_backend::memories::{self, Access, MemoryKind, Port};
use hsir_backend::sim::{self, stimulus, Inputs, Outcome, RaceKind, SimError};
use hsir_backend::Program;

fn program(text: &str) -> Program {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    Program::new(&parse).unwrap_or_else(|errors| {
        let shown: Vec<String> =
            errors.iter().map(|d| format!("{}: {}", d.code.code(), d.message)).collect();
        panic!("does not check:\n{}", shown.join("\n"))
    })
}

fn run(text: &str, top: &str, args: Vec<Vec<u64>>) -> Result<Outcome, SimError> {
    sim::run(&program(text), top, &Inputs { args, ..Inputs::default() }, 10_000)
}

/// Every function of every corpus file that checks runs to an outcome or an error, never a
/// panic.
#[test]
fn corpus_never_panics() {
    let mut files = Vec::new();
    for dir in ["corpus/circt", "corpus/dynamatic"] {
        let Some(found) = shared::mlir_files(dir) else { return };
        files.extend(found);
    }
    files.sort();
    let (mut ran, mut failed) = (0, 0);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
        let Ok(program) = Program::new(&parse) else { continue };
        // Split files may define a name twice; `run` finds the first.
        let unique = |name: &str| program.funcs.iter().filter(|f| f.name == name).count() == 1;
        for func in program.funcs.iter().filter(|f| !f.external && unique(&f.name)) {
            let directives = stimulus::Directives { tokens: 2, values: Default::default() };
            let inputs = stimulus::inputs(func, &directives, stimulus::seed(&func.name));
            match sim::run(&program, &func.name, &inputs, 20_000) {
                Ok(_) => ran += 1,
                Err(e) => {
                    eprintln!("{}: {e}", path.display());
                    failed += 1
                }
            }
        }
    }
    eprintln!("corpus: {ran} functions ran, {failed} stopped with an error");
    assert!(ran > 0);
}

#[test]
fn merge_of_coinciding_inputs_races() {
    let text = "handshake.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = merge %a, %b : i32\n  return %0 : i32\n}\n";
    let outcome = run(text, "f", vec![vec![1], vec![2]]).unwrap();
    // The lowest input holding a token goes first.
    assert_eq!(outcome.results, vec![vec![1, 2]]);
    assert_eq!(outcome.races.len(), 1);
    assert_eq!(outcome.races[0].kind, RaceKind::Merge { inputs: vec![0, 1] });
    assert_eq!(
        outcome.races[0].message,
        "`merge` (`%0`): the tokens of inputs 0 and 1 are not ordered by the circuit: which passes first depends on timing"
    );
}

/// Input 1's token arrives only after the merge took input 0's, but nothing in the circuit
/// orders the two: with other latencies it could have come first.
#[test]
fn merge_of_unordered_tokens_races_though_they_never_meet() {
    let text = "handshake.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = merge %a, %late : i32\n  %late = merge %b : i32\n  return %0 : i32\n}\n";
    let outcome = run(text, "f", vec![vec![1], vec![2]]).unwrap();
    assert_eq!(outcome.results, vec![vec![1, 2]]);
    assert_eq!(outcome.races.len(), 1);
    assert_eq!(outcome.races[0].kind, RaceKind::Merge { inputs: vec![1, 0] });
}

/// A loop's back edge depends on the merge's previous choice: no race.
#[test]
fn merge_of_a_loop_does_not_race() {
    let text = "handshake.func @f(%n: i8, %ctrl: none) -> (i8, none) {\n  %i = merge %n, %back : i8\n  %f:3 = fork [3] %i : i8\n  %s = source\n  %zero = constant %s {value = 0 : i8} : i8\n  %more = arith.cmpi ne, %f#0, %zero : i8\n  %t, %done = cond_br %more, %f#1 : i8\n  %s2 = source\n  %one = constant %s2 {value = 1 : i8} : i8\n  %back = arith.subi %t, %one : i8\n  sink %f#2 : i8\n  return %done, %ctrl : i8, none\n}\n";
    let outcome = run(text, "f", vec![vec![5], vec![0]]).unwrap();
    assert_eq!(outcome.results, vec![vec![0], vec![0]]);
    assert!(outcome.races.is_empty(), "{:?}", outcome.races);
    assert!(outcome.leftovers.is_empty(), "{:?}", outcome.leftovers);
}

#[test]
fn leftover_names_the_consuming_operand() {
    let text = "handshake.func @f(%addr: index, %ctrl: none, %data: i32) -> (i32, index) {\n  %x, %a = load [%addr] %data, %ctrl : index, i32\n  return %x, %a : i32, index\n}\n";
    let program = program(text);
    let inputs = Inputs { args: vec![vec![3], vec![0, 0], vec![7]], ..Inputs::default() };
    let outcome = sim::run(&program, "f", &inputs, 100).unwrap();
    assert_eq!(outcome.results, vec![vec![7], vec![3]]);
    assert_eq!(outcome.leftovers.len(), 1);
    let leftover = &outcome.leftovers[0];
    assert_eq!(leftover.message, "1 token left on the control of `load` (`%ctrl`)");
    // The role is the op table's, as signature help shows it.
    let role =
        hsir_analysis::ops::OpKind::Load.def().operand_role(hsir_analysis::ops::Era::Circt, 2, 3);
    assert_eq!(role, Some("control"));
    assert_eq!(leftover.count, 1);
    assert_eq!(leftover.tokens, vec![0]);
    let func = program.func("f").unwrap();
    let (op, operand) = leftover.consumer.unwrap();
    assert_eq!(func.item.ops[op as usize].name, "load");
    assert_eq!(operand, 2);
    assert_eq!(&func.text[std::ops::Range::<usize>::from(leftover.range)], "%ctrl");
    assert_eq!(func.item.str(func.item.values[leftover.value as usize].name()), "%ctrl");
}

#[test]
fn unused_values_are_sunk() {
    // A memory's done tokens may go unused: as in the netlist, an unused value gets a sink, so
    // what reaches it is consumed, not left over.
    let text = "handshake.func @f(%a: index, %ctrl: none) -> (i32, none) {\n  %0:2 = memory [ld = 1, st = 0] (%a) {id = 0 : i32, lsq = false} : memref<4xi32>, (index) -> (i32, none)\n  return %0#0, %ctrl : i32, none\n}\n";
    let outcome = run(text, "f", vec![vec![1, 2], vec![0]]).unwrap();
    assert_eq!(outcome.results, vec![vec![0, 0], vec![0]]);
    assert!(outcome.leftovers.is_empty(), "{:?}", outcome.leftovers);
}

#[test]
fn values_used_twice_are_forked() {
    // As in the netlist, a value with two uses gets an eager fork: each use sees every token.
    let text = "handshake.func @f(%a: i32, %ctrl: none) -> (i32, i32, none) {\n  return %a, %a, %ctrl : i32, i32, none\n}\n";
    let outcome = run(text, "f", vec![vec![5, 6], vec![0]]).unwrap();
    assert_eq!(outcome.results, vec![vec![5, 6], vec![5, 6], vec![0]]);
    assert!(outcome.leftovers.is_empty());
}

#[test]
fn unsupported_op_is_an_error_with_its_range() {
    let text = "handshake.func @f(%a: f32, %b: f32) -> f32 {\n  %0 = arith.remf %a, %b : f32\n  return %0 : f32\n}\n";
    let program = program(text);
    let error = run(text, "f", vec![vec![1], vec![2]]).unwrap_err();
    let SimError::Unsupported { func, op, range, reason } = &error else { panic!("{error}") };
    assert_eq!((func.as_str(), op.as_str()), ("f", "arith.remf"));
    let item = &program.func("f").unwrap().text;
    assert_eq!(&item[std::ops::Range::<usize>::from(*range)], "arith.remf");
    let reason_text = "its floating-point ops are addf, subf, mulf, divf, cmpf, negf, extf, truncf, sitofp, uitofp, fptosi, fptoui only";
    assert_eq!(reason, reason_text);
    assert_eq!(
        error.to_string(),
        format!("`arith.remf` in `@f` cannot be interpreted: {reason_text}")
    );
}

#[test]
fn a_circuit_that_never_settles_hits_the_step_limit() {
    let text = "handshake.func @counter(%ctrl: none) -> none {\n  %c = buffer [1] seq %next {initValues = [0]} : i32\n  %s = source\n  %one = constant %s {value = 1 : i32} : i32\n  %next = arith.addi %c, %one : i32\n  return %ctrl : none\n}\n";
    let error = run(text, "counter", vec![vec![0]]).unwrap_err();
    // The error says what `return` had received by then: nothing, the counter's steps came
    // first.
    assert_eq!(error, SimError::StepLimit { firings: 10_000, results: vec![vec![]] });
    assert!(error.to_string().ends_with("; the results had received #0 []"), "{error}");
}

#[test]
fn unordered_stores_to_one_address_race() {
    let text = "handshake.func @f(%d0: i32, %d1: i32, %a0: index, %a1: index, %c0: none, %c1: none) -> none {\n  %done:2 = memory [ld = 0, st = 2] (%s0d, %s0a, %s1d, %s1a) {id = 0 : i32, lsq = false} : memref<4xi32>, (i32, index, i32, index) -> (none, none)\n  %s0d, %s0a = store [%a0] %d0, %c0 : index, i32\n  %s1d, %s1a = store [%a1] %d1, %c1 : index, i32\n  %j = join %done#0, %done#1 : none, none\n  return %j : none\n}\n";
    let args = vec![vec![10], vec![11], vec![2], vec![2], vec![0], vec![0]];
    let outcome = run(text, "f", args).unwrap();
    assert_eq!(outcome.races.len(), 1);
    assert_eq!(outcome.races[0].kind, RaceKind::Memory { address: 2, stores: true });
    assert_eq!(outcome.memories["mem0"], vec![0, 0, 11, 0]);
    // Different addresses do not race.
    let args = vec![vec![10], vec![11], vec![1], vec![2], vec![0], vec![0]];
    let outcome = run(text, "f", args).unwrap();
    assert!(outcome.races.is_empty());
    assert_eq!(outcome.memories["mem0"], vec![0, 10, 11, 0]);
}

#[test]
fn recursion_is_too_deep() {
    let text = "handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {\n  %0:2 = instance @f(%a, %ctrl) : (i32, none) -> (i32, none)\n  return %0#0, %0#1 : i32, none\n}\n";
    let error = run(text, "f", vec![vec![1], vec![0]]).unwrap_err();
    assert!(matches!(error, SimError::TooDeep { .. }), "{error}");
}

#[test]
fn inputs_must_fit() {
    let text = "handshake.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n";
    let error = run(text, "f", vec![]).unwrap_err();
    assert_eq!(error.to_string(), "`@f` has 1 argument, but inputs for 0 were given");
    assert_eq!(run(text, "g", vec![vec![1]]).unwrap_err(), SimError::NoFunction("g".into()));
    // Tokens are masked to the channel's width.
    let text = "handshake.func @f(%a: i4) -> i4 {\n  return %a : i4\n}\n";
    assert_eq!(run(text, "f", vec![vec![0x1f]]).unwrap().results, vec![vec![0xf]]);
}

#[test]
fn instances_have_their_own_internal_memories() {
    let text = "handshake.func @cell(%d: i32, %ctrl: none) -> (i32, none) {\n  %ld, %sd, %ldd = memory [ld = 1, st = 1] (%sdata, %saddr, %laddr) {id = 0 : i32, lsq = false} : memref<2xi32>, (i32, index, index) -> (i32, none, none)\n  %c:3 = fork [3] %ctrl : none\n  %a0 = constant %c#0 {value = 1 : index} : index\n  %a1 = constant %c#1 {value = 1 : index} : index\n  %sdata, %saddr = store [%a0] %d, %c#2 : index, i32\n  %x, %laddr = load [%a1] %ld, %sd : index, i32\n  return %x, %ldd : i32, none\n}\n\nhandshake.func @top(%d: i32, %ctrl: none) -> (i32, none) {\n  %0:2 = instance @cell(%d, %ctrl) : (i32, none) -> (i32, none)\n  return %0#0, %0#1 : i32, none\n}\n";
    let outcome = run(text, "top", vec![vec![42], vec![0]]).unwrap();
    assert_eq!(outcome.results, vec![vec![42], vec![0]]);
    assert_eq!(outcome.memories.keys().collect::<Vec<_>>(), vec!["inst1.mem0"]);
    assert_eq!(outcome.memories["inst1.mem0"], vec![0, 42]);
}

#[test]
fn memories_are_named_once() {
    let text = "handshake.func @f(%mem0: memref<4xi8>, %a: index, %b: index, %ctrl: none) -> (i8, i16, i16, none) attributes {argNames = [\"mem0\", \"a\", \"b\", \"ctrl\"]} {\n  %x, %xd = extmemory [ld = 1, st = 0] (%mem0 : memref<4xi8>) (%la) {id = 0 : i32} : (index) -> (i8, none)\n  %y:2 = memory [ld = 1, st = 0] (%lb) {id = 0 : i32, lsq = false} : memref<8xi16>, (index) -> (i16, none)\n  %z:2 = memory [ld = 1, st = 0] (%lc) {id = 0 : i32, lsq = false} : memref<2xi16>, (index) -> (i16, none)\n  %c:4 = fork [4] %ctrl : none\n  %bf:2 = fork [2] %b : index\n  %x1, %la = load [%a] %x, %c#0 : index, i8\n  %y1, %lb = load [%bf#0] %y#0, %c#1 : index, i16\n  %z1, %lc = load [%bf#1] %z#0, %c#2 : index, i16\n  %done = join %xd, %y#1, %z#1, %c#3 : none, none, none, none\n  return %x1, %y1, %z1, %done : i8, i16, i16, none\n}\n";
    let program = program(text);
    let specs = memories::memories(program.func("f").unwrap());
    let names: Vec<(&str, u64, u32)> =
        specs.iter().map(|m| (m.name.as_str(), m.depth, m.width)).collect();
    assert_eq!(names, vec![("mem0", 4, 8), ("mem0_1", 8, 16), ("mem0_2", 2, 16)]);
    assert_eq!(specs[0].kind, MemoryKind::Argument(0));
    assert!(matches!(specs[1].kind, MemoryKind::Internal(_)));
    let extmemory = &specs[0].interfaces[0];
    assert_eq!(extmemory.operands, vec![Port::Memref, Port::LoadAddr(0)]);
    assert_eq!(extmemory.results, vec![Port::LoadData(0), Port::LoadDone(0)]);
}

#[test]
fn mem_controller_ports_follow_their_producers() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data/designs/mem_controller.mlir");
    let program = program(&std::fs::read_to_string(path).unwrap());
    let specs = memories::memories(program.func("increment").unwrap());
    assert_eq!(specs.len(), 1);
    assert_eq!((specs[0].name.as_str(), specs[0].depth, specs[0].width), ("mem", 8, 32));
    let interface = &specs[0].interfaces[0];
    assert_eq!(
        interface.operands,
        vec![
            Port::Memref,
            Port::MemStart,
            Port::StoreCount(0),
            Port::LoadAddr(0),
            Port::StoreAddr(0),
            Port::StoreData(0),
            Port::CtrlEnd
        ]
    );
    assert_eq!(interface.results, vec![Port::LoadData(0), Port::MemEnd]);
    assert_eq!((interface.loads, interface.stores, interface.store_counts), (1, 1, 1));
    assert!(!interface.steady_done, "a 2025 `mem_controller`'s done token answers `ctrlEnd`");
}

/// Dynamatic's own IR (atax): two memory controllers with load ports only.
#[test]
fn mem_controller_ports_in_dynamatic_output() {
    let Some(path) = shared::path("corpus/dynamatic/atax-6-6__handshake_export.mlir") else {
        return;
    };
    let (parse, _) = hsir_analysis::parse_bytes(&std::fs::read(path).unwrap());
    let program = Program::analyse(&parse);
    let specs = memories::memories(program.func("atax").unwrap());
    let names: Vec<&str> = specs.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, vec!["A", "x", "y", "tmp"]);
    let a = &specs[0].interfaces[0];
    assert_eq!(
        a.operands,
        vec![Port::Memref, Port::MemStart, Port::LoadAddr(0), Port::LoadAddr(1), Port::CtrlEnd]
    );
    assert_eq!(a.results, vec![Port::LoadData(0), Port::LoadData(1), Port::MemEnd]);
    // `y` is reached through an LSQ of one group, a load then a store:
    // `lsq[%arg2] (%arg6, %88#0, %addressResult_18, %addressResult_22, %dataResult_23, %156#2)`.
    let y = &specs[2].interfaces[0];
    assert_eq!(
        y.operands,
        vec![
            Port::Memref,
            Port::MemStart,
            Port::GroupAlloc(0),
            Port::LoadAddr(0),
            Port::StoreAddr(0),
            Port::StoreData(0),
            Port::CtrlEnd
        ]
    );
    assert_eq!(y.results, vec![Port::LoadData(0), Port::MemEnd]);
    assert_eq!(y.groups, vec![vec![Access::Load(0), Access::Store(0)]]);
    assert_eq!(y.problem, None);
    assert!(!y.steady_done);
}

#[test]
fn directives_of_a_file_and_of_a_function() {
    let text = "// hsir-sim: tokens=2\n\n// hsir-sim: a=1..3\nhandshake.func @f(%a: i8) -> i8 {\n  return %a : i8\n}\n\n// hsir-sim: tokens=4 a=5,6\nhandshake.func @g(%a: i8) -> i8 {\n  return %a : i8\n}\n";
    let program = program(text);
    let f = program.func("f").unwrap();
    let directives = stimulus::directives(text, &program, f).unwrap();
    assert_eq!(directives.tokens, 2);
    let inputs = stimulus::inputs(f, &directives, 1);
    assert_eq!(inputs.args[0].len(), 2);
    assert!(inputs.args[0].iter().all(|v| (1..=3).contains(v)));
    let g = program.func("g").unwrap();
    let directives = stimulus::directives(text, &program, g).unwrap();
    assert_eq!(directives.tokens, 4);
    assert_eq!(stimulus::inputs(g, &directives, 1).args, vec![vec![5, 6]]);
    let bad = "// hsir-sim: b=1..2\nhandshake.func @f(%a: i8) -> i8 {\n  return %a : i8\n}\n";
    let program = self::program(bad);
    let error = stimulus::directives(bad, &program, program.func("f").unwrap()).unwrap_err();
    assert_eq!(error, "`@f` has no argument or memory `b`");
}

/// The interpreter names a `dataflow.carry`'s operands by the op table's roles, the ones
/// signature help shows: the second initial value waits on the "initial value", and the held
/// carry waits for its "condition" and "carried value".
#[test]
fn carry_roles_are_the_tables() {
    use hsir_analysis::ops::{Era, OpKind};
    let text = "handshake.func @f(%c: i1, %init: i32, %next: i32) -> i32 {\n  %v = dataflow.carry %c, %init, %next : i1, i32, i32 -> i32\n  return %v : i32\n}\n";
    let outcome = run(text, "f", vec![vec![], vec![1, 2], vec![]]).unwrap();
    assert_eq!(outcome.results, vec![vec![1]]);
    let role = |i: usize| OpKind::Carry.def().operand_role(Era::Loom, i, 3).unwrap();
    assert_eq!((role(0), role(1), role(2)), ("condition", "initial value", "carried value"));
    let left: Vec<&str> = outcome.leftovers.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(left, [format!("1 token left on the {} of `dataflow.carry` (`%init`)", role(1))]);
    let held: Vec<&str> = outcome.held.iter().map(|h| h.message.as_str()).collect();
    assert_eq!(
        held,
        [format!(
            "`dataflow.carry` (`%v`) is still inside a loop: it waits for its {} (and, when it is true, its {})",
            role(0),
            role(2)
        )]
    );
}

/// Dynamatic 2024: `end` takes the function's result, then the `mem_controller`'s done token,
/// which is offered only while no store its store counts announced is pending. The result
/// leaves once the announced store is written, and waits for ever when the store never comes.
#[test]
fn end_of_2024_waits_for_the_memory_done_token() {
    let text = r#"handshake.func @f(%mem: memref<4xi32>, %a: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> !handshake.control<> attributes {argNames = ["mem", "a", "start"], resNames = ["end"]} {
  %done = mem_controller[%mem : memref<4xi32>] (%count, %st_addr, %st_data) {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i2>, !handshake.channel<i32>) -> !handshake.control<>
  %s:2 = fork [2] %start : <>
  %count = constant %s#0 {value = 1 : i32} : <i32>
  %af:2 = fork [2] %a : <i32>
  %addr = trunci %af#0 : <i32> to <i2>
  %st_addr, %st_data = mc_store[%addr] %af#1 : <i32>, <i2>
  end %s#1, %done : <>, <>
}
"#;
    let specs = memories::memories(program(text).func("f").unwrap());
    assert!(specs[0].interfaces[0].steady_done);
    let stored = run(text, "f", vec![vec![], vec![2], vec![0]]).unwrap();
    assert_eq!(stored.results, vec![vec![0]], "one result: the done token is not one");
    assert_eq!(stored.memories["mem"], vec![0, 0, 2, 0]);
    assert!(stored.leftovers.is_empty() && stored.held.is_empty(), "{stored:?}");
    let waiting = run(text, "f", vec![vec![], vec![], vec![0]]).unwrap();
    assert_eq!(waiting.results, vec![Vec::<u64>::new()]);
    let left: Vec<&str> = waiting.leftovers.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(left, ["1 token left on the result of `end` (`%s#1`)"]);
    let held: Vec<&str> = waiting.held.iter().map(|h| h.message.as_str()).collect();
    assert_eq!(held, ["`mem_controller` (`%done`) was told of 1 store it never received"]);
}

/// Dynamatic 2024's `lsq` has no `memStart` / `ctrlEnd`: its operands are the groups alone, and
/// its done token, after the load data, is offered only while no allocated access is pending
/// (`Interface::steady_done`, as a 2024 `mem_controller`'s). `end`'s result leaves once the
/// group's store is done, and waits for ever when the store's address never comes.
#[test]
fn lsq_of_2024_has_no_start_or_end_and_end_waits_for_its_done_token() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/designs/lsq_2024.mlir");
    let designed = program(&std::fs::read_to_string(path).unwrap());
    let specs = memories::memories(designed.func("prefix_2024").unwrap());
    let lsq = &specs[0].interfaces[0];
    assert_eq!(
        lsq.operands,
        vec![
            Port::Memref,
            Port::GroupAlloc(0),
            Port::LoadAddr(0),
            Port::StoreAddr(0),
            Port::StoreData(0)
        ]
    );
    assert_eq!(lsq.results, vec![Port::LoadData(0), Port::MemEnd]);
    assert_eq!(lsq.groups, vec![vec![Access::Load(0), Access::Store(0)]]);
    assert_eq!((lsq.steady_done, lsq.problem.as_deref()), (true, None));
    let text = r#"handshake.func @f(%mem: memref<4xi32>, %a: !handshake.channel<i32>, %d: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> !handshake.control<> attributes {argNames = ["mem", "a", "d", "start"], resNames = ["end"]} {
  %done = lsq[%mem : memref<4xi32>] (%s#0, %st_addr, %st_data) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.channel<i2>, !handshake.channel<i32>) -> !handshake.control<>
  %s:2 = fork [2] %start : <>
  %addr = trunci %a : <i32> to <i2>
  %st_addr, %st_data = lsq_store[%addr] %d : <i32>, <i2>
  end %s#1, %done : <>, <>
}
"#;
    let stored = run(text, "f", vec![vec![], vec![2], vec![7], vec![0]]).unwrap();
    assert_eq!(stored.results, vec![vec![0]], "one result: the done token is not one");
    assert_eq!(stored.memories["mem"], vec![0, 0, 7, 0]);
    assert!(stored.leftovers.is_empty() && stored.held.is_empty(), "{stored:?}");
    let waiting = run(text, "f", vec![vec![], vec![], vec![7], vec![0]]).unwrap();
    assert_eq!(waiting.results, vec![Vec::<u64>::new()]);
    assert_eq!(waiting.memories["mem"], vec![0, 0, 0, 0]);
    let left: Vec<&str> = waiting.leftovers.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(
        left,
        [
            "1 token left on the data to store of `lsq_store` (`%d`)",
            "1 token left on the result of `end` (`%s#1`)"
        ]
    );
    let held: Vec<&str> = waiting.held.iter().map(|h| h.message.as_str()).collect();
    assert_eq!(
        held,
        ["`lsq` (`%done`) still has 1 allocated access it never ran: the oldest, on store port 0, waits for its address"]
    );
}

/// How the interpreter's reports name operands: the table's roles, a repeated variadic port
/// numbered within its repetitions.
#[test]
fn operand_labels_number_repeated_variadic_ports() {
    use hsir_analysis::ops::{Era, OpKind};
    let label = |kind: OpKind, era: Era, i: usize, n: usize| kind.operand_label(era, i, n);
    assert_eq!(label(OpKind::Join, Era::Circt, 1, 2).as_deref(), Some("input 1"));
    assert_eq!(label(OpKind::Join, Era::Circt, 0, 1).as_deref(), Some("input"));
    assert_eq!(label(OpKind::Mux, Era::Dynamatic2026, 0, 3).as_deref(), Some("select"));
    assert_eq!(label(OpKind::Mux, Era::Dynamatic2026, 2, 3).as_deref(), Some("data 1"));
    assert_eq!(label(OpKind::Load, Era::Circt, 1, 3).as_deref(), Some("data from memory"));
    assert_eq!(label(OpKind::Load, Era::Circt, 1, 4).as_deref(), Some("address 1"));
    assert_eq!(label(OpKind::Load, Era::Circt, 3, 4).as_deref(), Some("control"));
    assert_eq!(label(OpKind::CondBr, Era::Dynamatic2025, 2, 2), None);
}
