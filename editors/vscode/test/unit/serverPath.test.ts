// Finding the server: the setting (with its variables), PATH, the bundled binary, and the
// reasons given when there is none.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { expandSetting, findServer, LookupContext } from "../../src/serverPath";

function executable(dir: string, name: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, 0o755);
  return file;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hsir-server-path-"));
const workspace = path.join(scratch, "ws");
const home = path.join(scratch, "home");
const extension = path.join(scratch, "ext");
const binDir = path.join(scratch, "bin");

function context(setting: string, pathDirs: string[]): LookupContext {
  return {
    setting,
    workspaceFolder: workspace,
    extensionPath: extension,
    env: { PATH: pathDirs.join(":"), HSIR_HOME: home },
    platform: "linux",
    home,
  };
}

test("variables and relative paths in hsir.server.path", () => {
  const cx = { workspaceFolder: workspace, env: { HSIR_HOME: home }, home, platform: "linux" as const };
  assert.deepEqual(expandSetting("${workspaceFolder}/target/debug/hsir", cx), {
    path: `${workspace}/target/debug/hsir`,
  });
  assert.deepEqual(expandSetting("~/bin/hsir", cx), { path: `${home}/bin/hsir` });
  assert.deepEqual(expandSetting("${userHome}/hsir", cx), { path: `${home}/hsir` });
  assert.deepEqual(expandSetting("${env:HSIR_HOME}/hsir", cx), { path: `${home}/hsir` });
  assert.deepEqual(expandSetting("target/hsir", cx), { path: `${workspace}/target/hsir` });
  assert.deepEqual(expandSetting("hsir-dev", cx), { path: "hsir-dev" });
  const noFolder = expandSetting("${workspaceFolder}/hsir", { ...cx, workspaceFolder: undefined });
  assert.ok("problem" in noFolder && noFolder.problem.includes("no folder is open"));
});

test("the setting first, then PATH, then the bundled binary", () => {
  assert.equal(findServer(context("", [binDir])).found, undefined);
  const bundled = executable(path.join(extension, "server"), "hsir");
  assert.deepEqual(findServer(context("", [binDir])).found, { command: bundled, source: "bundled" });
  const onPath = executable(binDir, "hsir");
  assert.deepEqual(findServer(context("", [binDir])).found, { command: onPath, source: "PATH" });
  const configured = executable(path.join(workspace, "target", "debug"), "hsir");
  assert.deepEqual(findServer(context("${workspaceFolder}/target/debug/hsir", [binDir])).found, {
    command: configured,
    source: "setting",
  });
});

test("a configured path that does not work is an error, not a silent fallback", () => {
  const missing = findServer(context("/nowhere/hsir", [binDir]));
  assert.equal(missing.found, undefined);
  assert.ok(missing.found === undefined && missing.fromSetting && missing.problem.includes("does not exist"));
  const plain = path.join(scratch, "plain");
  fs.writeFileSync(plain, "");
  fs.chmodSync(plain, 0o644);
  const notExecutable = findServer(context(plain, [binDir]));
  assert.ok(notExecutable.found === undefined && notExecutable.problem.includes("not an executable file"));
});

test("nothing anywhere names every place looked at", () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "hsir-empty-"));
  const lookup = findServer({ ...context("", [empty]), extensionPath: empty });
  assert.ok(lookup.found === undefined);
  assert.ok(lookup.problem.includes("cannot find the hsir language server"));
  assert.equal(lookup.tried.length, 2);
});
