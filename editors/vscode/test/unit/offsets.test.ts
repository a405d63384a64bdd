// Byte offsets to string indices, and the graph nodes' location attributes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { indexOfByteOffset, nodeRange } from "../../src/offsets";

test("byte offsets map to UTF-16 indices across multi-byte characters", () => {
  const text = "a\u00e9b\u20acc\u{1F600}d"; // 1 + 2 + 1 + 3 + 1 + 4 + 1 bytes
  assert.equal(indexOfByteOffset(text, 0), 0);
  assert.equal(indexOfByteOffset(text, 1), 1); // é
  assert.equal(indexOfByteOffset(text, 3), 2); // b
  assert.equal(indexOfByteOffset(text, 4), 3); // €
  assert.equal(indexOfByteOffset(text, 7), 4); // c
  assert.equal(indexOfByteOffset(text, 8), 5); // the emoji, two UTF-16 units
  assert.equal(indexOfByteOffset(text, 12), 7); // d
  assert.equal(indexOfByteOffset(text, 2), 2); // inside é: the next character
  assert.equal(indexOfByteOffset(text, 1000), text.length);
  assert.equal(indexOfByteOffset(text, -5), 0);
});

test("node attributes in each spelling", () => {
  assert.deepEqual(nodeRange({ start: "12" }), { start: 12 });
  assert.deepEqual(nodeRange({ start: "12", end: "20" }), { start: 12, end: 20 });
  assert.deepEqual(nodeRange({ start: "12", end: "3" }), { start: 12 });
  assert.deepEqual(nodeRange({ offset: "7" }), { start: 7 });
  assert.deepEqual(nodeRange({ range: "5..9" }), { start: 5, end: 9 });
  assert.deepEqual(nodeRange({ range: "5:9" }), { start: 5, end: 9 });
  assert.deepEqual(nodeRange({ range: "9-5" }), { start: 5, end: 9 });
  assert.deepEqual(nodeRange({ range: "5" }), { start: 5 });
  assert.equal(nodeRange({ start: "x" }), undefined);
  assert.equal(nodeRange({}), undefined);
});
