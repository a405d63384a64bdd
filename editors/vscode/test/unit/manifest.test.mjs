// Every command and setting the manifest (package.json) declares is handled by the sources:
// each command is registered, each setting is read. Run with `node --test test/unit/`.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const sources = readdirSync(join(root, "src"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => readFileSync(join(root, "src", f), "utf8"))
  .join("\n");

test("every declared command is registered", () => {
  const declared = manifest.contributes.commands.map((c) => c.command);
  assert.ok(declared.length > 0);
  // The ids registered: registerCommand(X, ...) where X is a string or a CLIENT_COMMANDS entry.
  const table = Object.fromEntries(
    [...sources.matchAll(/(\w+):\s*"(hsir\.[\w.]+)"/g)].map((m) => [m[1], m[2]]),
  );
  const registered = new Set(
    [...sources.matchAll(/registerCommand\(\s*(?:"([\w.]+)"|CLIENT_COMMANDS\.(\w+))/g)].map(
      (m) => m[1] ?? table[m[2]],
    ),
  );
  for (const command of declared) {
    assert.ok(registered.has(command), `${command} is declared but never registered`);
  }
  // And the palette shows each one (no command is declared but hidden by mistake).
  const hidden = (manifest.contributes.menus?.commandPalette ?? []).filter((m) => m.when === "false");
  for (const entry of hidden) {
    assert.ok(!declared.includes(entry.command), `${entry.command} is hidden from the palette`);
  }
});

test("every declared setting is read", () => {
  const configuration = Array.isArray(manifest.contributes.configuration)
    ? manifest.contributes.configuration
    : [manifest.contributes.configuration];
  const keys = configuration.flatMap((c) => Object.keys(c.properties));
  assert.ok(keys.length > 0);
  for (const key of keys) {
    if (key === "hsir.trace.server") {
      // vscode-languageclient reads `<client id>.trace.server` itself.
      assert.match(sources, /new LanguageClient\(\s*"hsir"/, "the client's id must be `hsir`");
      continue;
    }
    const local = key.replace(/^hsir\./, "");
    const read = sources.includes(`"${local}"`) || sources.includes(`"${key}"`);
    assert.ok(read, `${key} is declared but never read`);
  }
});
