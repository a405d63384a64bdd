// The TextMate grammar, run by VS Code's own engine (vscode-textmate with the Oniguruma WASM):
// each line below is tokenized and the scope of some of its words is checked. Run with
// `node --test test/unit/`; `UPDATE_DUMP=1` prints every token instead.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function loadGrammar() {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.mlir") return null;
      const path = join(root, "syntaxes", "mlir.tmLanguage.json");
      return vsctm.parseRawGrammar(readFileSync(path, "utf8"), path);
    },
  });
  return registry.loadGrammar("source.mlir");
}

/** Every token of `lines` as { line, start, end, text, scopes }. */
function tokenize(grammar, lines) {
  let state = vsctm.INITIAL;
  const out = [];
  lines.forEach((line, index) => {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const text = line.slice(token.startIndex, token.endIndex);
      if (text.trim() !== "") {
        out.push({ line: index, start: token.startIndex, end: token.endIndex, text, scopes: token.scopes });
      }
    }
    state = result.ruleStack;
  });
  return out;
}

const word = /[A-Za-z0-9_]/;

/** The `nth` occurrence of `text` in `lines` that is not part of a longer word. */
function occurrence(lines, text, nth) {
  let seen = 0;
  for (let line = 0; line < lines.length; line++) {
    for (let at = lines[line].indexOf(text); at >= 0; at = lines[line].indexOf(text, at + 1)) {
      const before = lines[line][at - 1] ?? " ";
      const after = lines[line][at + text.length] ?? " ";
      if (
        (word.test(text[0]) && word.test(before)) ||
        (word.test(text[text.length - 1]) && word.test(after))
      ) {
        continue;
      }
      if (seen++ === nth) return { line, start: at, end: at + text.length };
    }
  }
  return undefined;
}

/** Asserts that every token of the `nth` occurrence of `text` has a scope starting with
 * `scope`. */
function expectScope(lines, tokens, text, scope, nth = 0) {
  const place = occurrence(lines, text, nth);
  assert.ok(place, `no ${JSON.stringify(text)} (#${nth}) in the source`);
  const covering = tokens.filter((t) => t.line === place.line && t.end > place.start && t.start < place.end);
  assert.ok(covering.length > 0, `no token covers ${JSON.stringify(text)}`);
  for (const token of covering) {
    assert.ok(
      token.scopes.some((s) => s.startsWith(scope)),
      `${JSON.stringify(text)} (token ${JSON.stringify(token.text)}, line ${place.line + 1}) has scopes ${token.scopes.join(" ")}; expected ${scope}`,
    );
  }
}

const grammar = await loadGrammar();

function check(source, expectations) {
  const lines = source.split("\n");
  const tokens = tokenize(grammar, lines);
  if (process.env.UPDATE_DUMP) {
    for (const t of tokens) console.log(`${t.text.padEnd(28)} ${t.scopes.slice(1).join(" ")}`);
  }
  for (const [text, scope, nth] of expectations) expectScope(lines, tokens, text, scope, nth ?? 0);
}

test("Dynamatic's custom syntax: ops, results, short channel types, inline attributes", () => {
  check(
    [
      'handshake.func @accumulate(%n: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "start"]} {',
      "  %starts:3 = fork [3] %start : <>",
      "  %ctrl, %index = control_merge [%starts#2, %ctrl_back] : [<>, <>] to <>, <i1>",
      "  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>",
      "  %zero = constant %starts#0 {value = 0 : i32} : <>, <i32>",
      "  %more = cmpi slt, %is#0, %bs#0 : <i32>",
      "  sink %i_f : <i32>",
      "  end %sum_f, %c_f : <i32>, <>",
      "}",
    ].join("\n"),
    [
      ["handshake", "entity.name.namespace.dialect"],
      ["func", "entity.name.function.op.handshake"],
      ["@accumulate", "entity.name.function.symbol"],
      ["%n", "variable.other.ssa"],
      ["channel", "storage.type.channel.handshake"],
      ["control", "storage.type.channel.handshake"],
      ["i32", "storage.type.builtin"],
      ["argNames", "entity.other.attribute-name"],
      ['"', "string.quoted.double"],
      ["attributes", "keyword.other"],
      ["%starts", "variable.other.ssa.definition"],
      ["3", "constant.numeric.integer.result-count"],
      ["fork", "entity.name.function.op.handshake"],
      ["control_merge", "entity.name.function.op.handshake"],
      ["2", "constant.numeric.integer.result-number"],
      ["to", "keyword.other"],
      ["<i1>", "meta.type.channel.short"],
      ["i1", "storage.type.builtin"],
      ["buffer", "entity.name.function.op.handshake"],
      ["bufferType", "entity.other.attribute-name"],
      ["ONE_SLOT_BREAK_R", "constant.other.enum"],
      ["constant", "entity.name.function.op.handshake"],
      ["value", "entity.other.attribute-name"],
      ["cmpi", "entity.name.function.op.arith"],
      ["slt", "constant.language.predicate"],
      ["sink", "entity.name.function.op.handshake"],
      ["end", "entity.name.function.op.handshake"],
    ],
  );
});

test("extra signals and the proposals' spellings", () => {
  check(
    [
      "handshake.func @f(%a: !handshake.channel<i32, [e: i1 (U)]>, %b: channel<i8, [spec: i1]>, %c: control) -> (control) {",
      "  %x = merge %a : <i32, [e: i1 (U)]>",
      '  %y = buffer %b {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i8>',
      "  return %c : control",
      "}",
    ].join("\n"),
    [
      ["e", "variable.parameter.signal"],
      ["U", "storage.modifier.direction"],
      ["spec", "variable.parameter.signal"],
      ["control", "storage.type.channel.handshake"],
      ["control", "storage.type.channel.handshake", 1],
      ["merge", "entity.name.function.op.handshake"],
      ["hw.parameters", "entity.other.attribute-name"],
      ["BUFFER_TYPE", "entity.other.attribute-name"],
      ["ui32", "storage.type.builtin"],
      ["#handshake<", "constant.other.attribute"],
      ["D", "variable.other.property"],
      ["return", "entity.name.function.op.handshake"],
    ],
  );
});

test("CIRCT's syntax, generic ops, pipelines, LOOM, block labels", () => {
  check(
    [
      "handshake.func @g(%a: i32, %ctrl: none) -> (i32, none) {",
      "  %0 = buffer [1] seq %a {initValues = [0]} : i32",
      '  %1 = "handshake.buffer"(%0) {bufferType = 2 : i64, numSlots = 1 : i64} : (!handshake.channel<i32>) -> !handshake.channel<i32>',
      "  return %1, %ctrl : i32, none",
      "}",
      "hw.module @p(in %x : i32, in %go : i1, in %clk : !seq.clock, out y : i32) {",
      "  %out, %done = pipeline.scheduled(%a0 : i32 = %x) clock(%clk) reset(%rst) go(%go) entryEn(%s0_valid) -> (out : i32) {",
      "  ^bb0(%a0: i32, %s0_valid: i1):",
      "    pipeline.stage ^bb1",
      "    %v = dataflow.carry %c, %init, %next : i1, i32, i32 -> i32",
      "    %w = arith.addi %v, %v : i32",
      "  }",
      "  %m = memref.alloc() : memref<10x?xi32>",
      "  hw.output %out : i32",
      "}",
    ].join("\n"),
    [
      ["none", "storage.type.builtin"],
      ["seq", "keyword.other"],
      ["initValues", "entity.other.attribute-name"],
      ["handshake", "entity.name.namespace.dialect", 1],
      ["buffer", "entity.name.function.op.handshake", 1],
      ["hw", "entity.name.namespace.dialect"],
      ["module", "entity.name.function.op"],
      ["clock", "storage.type.dialect"],
      ["scheduled", "entity.name.function.op.pipeline"],
      ["^bb0", "entity.name.label.block"],
      ["stage", "entity.name.function.op.pipeline"],
      ["^bb1", "entity.name.label.block"],
      ["carry", "entity.name.function.op.dataflow"],
      ["addi", "entity.name.function.op.arith"],
      ["10x?xi32", "meta.type.builtin"],
      ["output", "entity.name.function.op"],
    ],
  );
});

test("comments, strings with escapes, numbers", () => {
  check(
    [
      "// hsir-sim: tokens=1 n=0..12",
      '%c = arith.constant -1.5e3 : f32 // trailing "quoted"',
      '%s = constant {name = "a\\"b", v = 0x1F} : i8',
    ].join("\n"),
    [
      ["//", "comment.line.double-slash"],
      ["-1.5e3", "constant.numeric.float"],
      ["f32", "storage.type.builtin"],
      ['\\"', "constant.character.escape"],
      ["0x1F", "constant.numeric.integer.hexadecimal"],
    ],
  );
});

test("the example kernel has no op name outside op positions", () => {
  const text = readFileSync(join(root, "..", "..", "examples", "kernel.mlir"), "utf8");
  const tokens = tokenize(grammar, text.split("\n"));
  const ops = tokens.filter((t) => t.scopes.some((s) => s.startsWith("entity.name.function.op")));
  const names = new Set(ops.map((t) => t.text));
  for (const name of names) {
    assert.match(
      name,
      /^(handshake|func|fork|constant|control_merge|mux|buffer|cmpi|cond_br|addi|source|sink|end)$/,
      `unexpected op-coloured token ${name}`,
    );
  }
  for (const expected of ["fork", "mux", "buffer", "cond_br", "end"]) {
    assert.ok(names.has(expected), `${expected} is not coloured as an op`);
  }
});
