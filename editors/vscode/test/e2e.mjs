// End-to-end test of the VS Code extension in a real editor: code-server (VS Code in the
// browser) with the packaged .vsix installed, driven by Debian's Chromium through
// playwright-core.
//
//   HSIR_BIN=/path/to/hsir node test/e2e.mjs
//   node test/e2e.mjs --install-only     # only the npm installs (the extension's, code-server)
//
// Environment:
//   HSIR_BIN              the hsir binary the extension runs (required; the Rust test passes
//                         CARGO_BIN_EXE_hsir)
//   HSIR_E2E_CACHE        where code-server is installed and runs are kept
//                         (default: <repo>/target/vscode-e2e); reused between runs
//   HSIR_E2E_CHROMIUM     the browser (default: /usr/bin/chromium)
//   HSIR_E2E_SCREENSHOT   where the screenshot goes (default: <repo>/docs/screenshots/vscode.png;
//                         the graph's goes beside it, as vscode-graph.png)
//   HSIR_E2E_TIMEOUT      seconds for the whole run (default: 900, install included)
//
// What it checks, each step under its own timeout:
//   1. the extension is built and packaged (`npm run package`), code-server 4.100.3 is
//      installed (once per cache) and installs the .vsix;
//   2. a diagnostics fixture opens, the status bar item says the server is ready, the
//      diagnostic's code shows in the Problems panel and a squiggle in the editor;
//   3. hovering a `buffer` of the example kernel shows its latencies (the server's hover);
//   4. "hsir: Generate RTL" from the command palette writes the top function's .v file to
//      the folder the `hsir.rtl.outputDir` setting names (so settings reach the server), and
//      opens it;
//   5. "hsir: Show Dataflow Graph" shows the server's SVG in a webview, and a click on the
//      control_merge node selects that op in the editor; "hsir: Place buffers (FPGA20 / FPL22)"
//      with FPGA20 picked in its quick pick writes buffers into the open sum_loop.mlir (the
//      server's workspace/applyEdit), and its summary is shown;
//   6. "hsir: Co-simulate against C" on Dynamatic's fir kernel (from ../shared/dynamatic-suite,
//      laid out as ir/ and c/; skipped with a message when it is missing): the C-file dialog
//      starts at c/fir.c and is accepted with Enter; the progress notification shows the
//      stages, and the verdict says PASS with the RTL's cycles. Then a copy whose loop
//      subtracts where the kernel adds: the verdict is a FAIL naming the element (`return`),
//      and the output panel opens with the mismatches;
//   7. a settings change made in settings.json reaches the running server: HS2001 set to
//      "warning" turns the fixture's errors into warnings;
//   8. with `hsir.server.path` pointing nowhere, the server restarts into an error: the status
//      bar says so, and a message names the path and offers to open the settings.
// Screenshots of step 3 (diagnostics, Problems panel and hover) and step 5 (the graph) are
// saved for the README. code-server runs in its own process group, which is killed at the end
// whatever happens.

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const CODE_SERVER_VERSION = "4.100.3";
/** @vscode/ripgrep's version in code-server's lockfile, and the ripgrep build it downloads. */
const RIPGREP_PACKAGE_VERSION = "1.15.11";
const RIPGREP_ASSET = "ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz";

const extensionDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repo = path.resolve(extensionDir, "..", "..");
const cacheDir = path.resolve(process.env.HSIR_E2E_CACHE ?? path.join(repo, "target", "vscode-e2e"));
const chromiumPath = process.env.HSIR_E2E_CHROMIUM ?? "/usr/bin/chromium";
const screenshotPath = path.resolve(
  process.env.HSIR_E2E_SCREENSHOT ?? path.join(repo, "docs", "screenshots", "vscode.png"),
);
const totalTimeout = Number(process.env.HSIR_E2E_TIMEOUT ?? 900) * 1000;
/** Dynamatic's kernels beside the repository (read-only; the co-simulation step needs them). */
// The shared data: HSIR_SHARED (set by lsp/tests/vscode.rs from the tests' finder), else ../shared.
const sharedDir = process.env.HSIR_SHARED
  ? path.resolve(repo, process.env.HSIR_SHARED)
  : path.resolve(repo, "..", "shared");
const suiteDir = path.join(sharedDir, "dynamatic-suite");
/** The co-simulated kernel's export, and the line its altered copy changes. */
const COSIM_IR = "fir_LEGACY__handshake_export.mlir";
const COSIM_ALTERED = "fir_altered.mlir";
const COSIM_ADD = "%38 = addi %37, %35";
const COSIM_SUB = "%38 = subi %37, %35";

const started = Date.now();
function log(message) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  console.log(`[e2e ${seconds}s] ${message}`);
}

class Failure extends Error {}

/** code-server's process group while it runs: killed on every way out, the watchdog's too. */
let serverGroup;
process.on("exit", () => {
  if (serverGroup !== undefined) {
    try {
      process.kill(-serverGroup, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

/** `env` without its undefined entries (a child would see the string "undefined"). */
function cleanEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
}

function fail(message) {
  throw new Failure(message);
}

/** Runs `step` and fails with `what` if it takes longer than `ms`. */
async function within(ms, what, step) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Failure(`timed out after ${ms / 1000}s: ${what}`)), ms);
  });
  try {
    return await Promise.race([step(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---- prerequisites ---------------------------------------------------------------------------

function which(program) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

const installOnly = process.argv.includes("--install-only");

function checkPrerequisites() {
  const problems = [];
  const major = Number(process.versions.node.split(".")[0]);
  if (major !== 20) {
    problems.push(
      `code-server ${CODE_SERVER_VERSION} needs Node.js 20; this is ${process.version} (Debian 12: apt-get install nodejs)`,
    );
  }
  if (!which("npm")) problems.push("npm is missing (apt-get install npm)");
  if (!fs.existsSync(chromiumPath)) {
    problems.push(`no browser at ${chromiumPath} (apt-get install chromium, or set HSIR_E2E_CHROMIUM)`);
  }
  const hsir = process.env.HSIR_BIN;
  if (installOnly) {
    // No server needed to install.
  } else if (!hsir) {
    problems.push("HSIR_BIN is not set: point it at the hsir binary (cargo test sets it)");
  } else if (!fs.existsSync(hsir)) {
    problems.push(`HSIR_BIN is ${hsir}, which does not exist`);
  }
  if (!which("rg"))
    problems.push("ripgrep is missing (apt-get install ripgrep): code-server's install needs its binary");
  for (const tool of ["make", "g++", "pkg-config"]) {
    if (!which(tool))
      problems.push(
        `${tool} is missing (apt-get install build-essential pkg-config): code-server builds native modules`,
      );
  }
  if (!fs.existsSync("/usr/include/gssapi/gssapi.h") && !fs.existsSync("/usr/include/gssapi.h")) {
    problems.push(
      "Kerberos headers are missing (apt-get install libkrb5-dev): code-server's kerberos module needs them",
    );
  }
  if (problems.length > 0) {
    fail(
      `the VS Code end-to-end test cannot run:\n  - ${problems.join("\n  - ")}\n(.ci/run installs all of these)`,
    );
  }
  return { hsir: hsir && path.resolve(hsir) };
}

// ---- building and installing -----------------------------------------------------------------

/** Runs a command to completion, failing with its output. */
function run(command, args, options = {}) {
  const shown = `${command} ${args.join(" ")}`;
  const result = spawnSync(command, args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeout ?? 600_000,
    ...options,
    env: cleanEnv({
      ...process.env,
      npm_config_yes: "true",
      npm_config_unsafe_perm: "true",
      npm_config_fund: "false",
      npm_config_audit: "false",
      ...options.env,
    }),
  });
  if (result.error || result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    fail(
      `\`${shown}\` (in ${options.cwd ?? process.cwd()}) failed: ${result.error?.message ?? `exit ${result.status}`}\n${output}`,
    );
  }
  return result.stdout;
}

function fileHash(file) {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** The extension's node_modules, installed from its lockfile when that changed. */
function installExtensionDependencies() {
  const stamp = path.join(extensionDir, "node_modules", ".hsir-lock-sha256");
  const wanted = fileHash(path.join(extensionDir, "package-lock.json"));
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === wanted) {
    log("extension dependencies: up to date");
    return;
  }
  log("extension dependencies: npm ci");
  run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: extensionDir });
  fs.writeFileSync(stamp, wanted);
}

function packageExtension() {
  log("unit tests: the grammar in VS Code's TextMate engine, the server lookup (npm run test:unit)");
  run("npm", ["run", "test:unit"], { cwd: extensionDir });
  log("building and packaging the extension (npm run package)");
  run("npm", ["run", "package"], { cwd: extensionDir });
  const vsix = path.join(extensionDir, "hsir.vsix");
  if (!fs.existsSync(vsix)) fail(`npm run package did not write ${vsix}`);
  return vsix;
}

/**
 * code-server from npm, installed once under the cache. Its postinstall builds native modules
 * and runs @vscode/ripgrep's, which downloads ripgrep from GitHub; the download is served
 * from a cache seeded with Debian's rg.
 */
function installCodeServer() {
  const dir = path.join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
  const entry = path.join(dir, "node_modules", "code-server", "out", "node", "entry.js");
  const stamp = path.join(dir, ".installed");
  if (fs.existsSync(stamp) && fs.existsSync(entry)) {
    log(`code-server ${CODE_SERVER_VERSION}: cached in ${dir}`);
    return entry;
  }
  log(`code-server ${CODE_SERVER_VERSION}: installing into ${dir} (once)`);
  fs.rmSync(dir, { recursive: true, force: true });
  const tmp = path.join(dir, "tmp");
  const ripgrepCache = path.join(tmp, `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`);
  fs.mkdirSync(ripgrepCache, { recursive: true });
  const staging = fs.mkdtempSync(path.join(tmp, "rg-"));
  fs.copyFileSync(which("rg"), path.join(staging, "rg"));
  fs.chmodSync(path.join(staging, "rg"), 0o755);
  run("tar", ["czf", path.join(ripgrepCache, RIPGREP_ASSET), "-C", staging, "rg"]);
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ private: true, description: "code-server for hsir's VS Code test" }, null, 2),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--no-save", `code-server@${CODE_SERVER_VERSION}`], {
    cwd: dir,
    timeout: 900_000,
    env: {
      TMPDIR: tmp,
      // npm 11 runs no dependency's install scripts unless allowed; code-server's postinstall
      // (and the nested installs it runs) build what it needs.
      npm_config_dangerously_allow_all_scripts: "true",
      npm_config_nodedir: fs.existsSync("/usr/include/node/node.h") ? "/usr" : undefined,
    },
  });
  if (!fs.existsSync(entry)) fail(`npm installed code-server, but ${entry} is missing`);
  const rg = path.join(
    dir,
    "node_modules",
    "code-server",
    "lib",
    "vscode",
    "node_modules",
    "@vscode",
    "ripgrep",
    "bin",
    "rg",
  );
  if (!fs.existsSync(rg)) fail(`code-server's install left no ripgrep at ${rg}`);
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return entry;
}

// ---- code-server -----------------------------------------------------------------------------

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The run's folders: workspace, user data, extensions, browser profile. */
function prepareRun(hsir) {
  const runs = path.join(cacheDir, "runs");
  fs.mkdirSync(runs, { recursive: true });
  // Keep the last few runs for debugging; older ones go.
  const old = fs.readdirSync(runs).sort().slice(0, -3);
  for (const name of old) fs.rmSync(path.join(runs, name), { recursive: true, force: true });
  const dir = fs.mkdtempSync(path.join(runs, `${new Date().toISOString().replace(/[:.]/g, "-")}-`));
  const workspace = path.join(dir, "workspace");
  const userData = path.join(dir, "user-data");
  const extensions = path.join(dir, "extensions");
  const browserProfile = path.join(dir, "chromium");
  const xdg = path.join(dir, "xdg");
  for (const d of [workspace, path.join(userData, "User"), extensions, browserProfile, xdg])
    fs.mkdirSync(d, { recursive: true });
  fs.copyFileSync(
    path.join(repo, "analysis", "test_data", "diagnostics", "HS2001_unknown_buffer_type.mlir"),
    path.join(workspace, "unknown_buffer_type.mlir"),
  );
  fs.copyFileSync(path.join(repo, "examples", "kernel.mlir"), path.join(workspace, "kernel.mlir"));
  fs.copyFileSync(
    path.join(repo, "backend", "test_data", "placement", "sum_loop.mlir"),
    path.join(workspace, "sum_loop.mlir"),
  );
  // Co-simulation: the suite's layout (ir/ beside c/), the kernel and a copy whose loop
  // computes `tmp - idx[i] * di[...]` where the C adds.
  const cosim = fs.existsSync(path.join(suiteDir, "ir", COSIM_IR));
  if (cosim) {
    fs.mkdirSync(path.join(workspace, "ir"));
    fs.mkdirSync(path.join(workspace, "c"));
    const ir = fs.readFileSync(path.join(suiteDir, "ir", COSIM_IR), "utf8");
    if (!ir.includes(COSIM_ADD)) fail(`${COSIM_IR} has no \`${COSIM_ADD}\` to alter`);
    fs.writeFileSync(path.join(workspace, "ir", COSIM_IR), ir);
    fs.writeFileSync(path.join(workspace, "ir", COSIM_ALTERED), ir.replace(COSIM_ADD, COSIM_SUB));
    for (const file of ["fir.c", "fir.h"]) {
      fs.copyFileSync(path.join(suiteDir, "c", file), path.join(workspace, "c", file));
    }
    fs.writeFileSync(
      path.join(workspace, "c", "forever.c"),
      '#include "dynamatic/Integration.h"\nint main(void) { for (;;) {} }\n',
    );
  }
  const settings = {
    "hsir.server.path": hsir,
    "hsir.rtl.outputDir": "rtl-out",
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "workbench.colorTheme": "Default Dark Modern",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "chat.commandCenter.enabled": false,
    "security.workspace.trust.enabled": false,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "extensions.ignoreRecommendations": true,
    "git.enabled": false,
    "editor.hover.delay": 200,
    "editor.minimap.enabled": false,
    "editor.fontSize": 13,
    "window.commandCenter": false,
  };
  fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
  const config = path.join(dir, "config.yaml");
  fs.writeFileSync(config, "auth: none\ncert: false\n");
  return { dir, workspace, userData, extensions, browserProfile, xdg, config, cosim };
}

function codeServerEnv(paths) {
  return cleanEnv({
    ...process.env,
    XDG_CONFIG_HOME: path.join(paths.xdg, "config"),
    XDG_DATA_HOME: path.join(paths.xdg, "data"),
    XDG_CACHE_HOME: path.join(paths.xdg, "cache"),
    // The extension finds the server through its setting, not through PATH.
    HSIR_TEST_HOOKS: undefined,
  });
}

function installVsix(entry, paths, vsix) {
  log("installing the .vsix into code-server");
  const out = run(
    process.execPath,
    [
      entry,
      "--config",
      paths.config,
      "--user-data-dir",
      paths.userData,
      "--extensions-dir",
      paths.extensions,
      "--install-extension",
      vsix,
      "--force",
    ],
    {
      env: codeServerEnv(paths),
      timeout: 120_000,
    },
  );
  if (!/hsir\.hsir/.test(out) && !fs.readdirSync(paths.extensions).some((d) => d.startsWith("hsir.hsir-"))) {
    fail(`code-server did not install the extension:\n${out}`);
  }
}

/** Starts code-server in a process group of its own; `stop` kills the whole group. */
function startCodeServer(entry, paths, port) {
  const logFile = path.join(paths.dir, "code-server.log");
  const out = fs.openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    [
      entry,
      "--config",
      paths.config,
      "--auth",
      "none",
      "--bind-addr",
      `127.0.0.1:${port}`,
      "--user-data-dir",
      paths.userData,
      "--extensions-dir",
      paths.extensions,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--ignore-last-opened",
      paths.workspace,
    ],
    { detached: true, stdio: ["ignore", out, out], env: codeServerEnv(paths) },
  );
  fs.closeSync(out);
  serverGroup = child.pid;
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const stop = async () => {
    if (child.pid === undefined) return;
    for (const signal of ["SIGTERM", "SIGKILL"]) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        return; // The group is gone.
      }
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        try {
          process.kill(-child.pid, 0);
        } catch {
          serverGroup = undefined;
          return;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  return { child, logFile, stop, exited: () => exited };
}

async function waitForHttp(url, server, ms) {
  await within(ms, `code-server answering at ${url}`, async () => {
    for (;;) {
      if (server.exited()) fail(`code-server exited early; its log:\n${tail(server.logFile)}`);
      try {
        const response = await fetch(url);
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  });
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function findFiles(dir, pattern) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && pattern.test(entry.name))
      found.push(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return found;
}

// ---- driving the editor ----------------------------------------------------------------------

/**
 * Changes the user settings as a user does, in settings.json through the editor (code-server
 * does not notice the file changing on disk under it), and waits for the file to be saved.
 */
async function editUserSettings(page, paths, change) {
  const settingsFile = path.join(paths.userData, "User", "settings.json");
  const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8"));
  change(settings);
  const wanted = JSON.stringify(settings);
  await runCommand(page, "Preferences: Open User Settings (JSON)");
  await page
    .locator(".editor-group-container.active .tab.active", { hasText: "settings.json" })
    .waitFor({ timeout: 15_000 });
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+A");
  // Pasted: typed or inserted text gets the editor's auto-closing quotes and brackets.
  await page.evaluate((text) => navigator.clipboard.writeText(text), wanted);
  await page.keyboard.press("Control+V");
  await page.keyboard.press("Control+S");
  await within(15_000, "settings.json saved", async () => {
    const saved = () => {
      try {
        return JSON.stringify(JSON.parse(fs.readFileSync(settingsFile, "utf8")));
      } catch {
        return undefined; // Being written.
      }
    };
    while (saved() !== wanted) await page.waitForTimeout(100);
  });
}

async function quickInput(page, prefix, text, rowText) {
  await page.keyboard.press("Escape");
  await page.keyboard.press(prefix === ">" ? "F1" : "Control+P");
  const input = page.locator(".quick-input-widget input.input");
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await input.fill(`${prefix === ">" ? ">" : ""}${text}`);
  // The row whose label is exactly the wanted one (the first row may be another match).
  const exact = new RegExp(`^${(rowText ?? text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  const row = page
    .locator(".quick-input-widget .monaco-list-row")
    .filter({ has: page.locator(".label-name", { hasText: exact }) })
    .first();
  await row.waitFor({ state: "visible", timeout: 15_000 });
  await row.click();
}

async function runCommand(page, label) {
  await quickInput(page, ">", label, label);
}

async function openFile(page, name) {
  await quickInput(page, "", name, name);
  await page
    .locator(".editor-group-container.active .tab.active", { hasText: name })
    .waitFor({ timeout: 15_000 });
  await page
    .locator(".editor-group-container.active .monaco-editor .view-lines")
    .first()
    .waitFor({ timeout: 15_000 });
}

/** The text of the notifications shown now. */
async function notifications(page) {
  return (await page.locator(".notifications-toasts .notification-list-item").allInnerTexts()).join(
    "\n---\n",
  );
}

async function waitForNotification(page, pattern, ms, what) {
  await within(ms, what, async () => {
    for (;;) {
      const text = await notifications(page);
      if (pattern.test(text)) return text;
      await page.waitForTimeout(200);
    }
  });
}

/**
 * Records the text of every notification toast shown from now on, however briefly (a progress
 * notification may come and go between two polls); `seen()` gives them in order.
 */
async function recordNotifications(page) {
  await page.evaluate(() => {
    const seen = [];
    window.__hsirSeen = seen;
    const record = () => {
      for (const item of document.querySelectorAll(".notifications-toasts .notification-list-item")) {
        const text = item.innerText.trim();
        if (text !== "" && seen[seen.length - 1] !== text && !seen.includes(text)) seen.push(text);
      }
    };
    window.__hsirObserver?.disconnect();
    window.__hsirObserver = new MutationObserver(record);
    window.__hsirObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
    record();
  });
  return { seen: () => page.evaluate(() => window.__hsirSeen.slice()) };
}

/**
 * "hsir: Co-simulate against C" from the palette in `file`, the cursor on the line matching
 * `line`. The C-file dialog (VS Code's simple file dialog in code-server) must start at
 * c/fir.c; the user takes it with Enter, or types `pick` over it first. `during` runs once
 * the dialog has closed. Returns the text of the verdict's notification (the first matching
 * `verdict`) and of every notification shown meanwhile.
 */
async function cosimFromPalette(page, file, line, verdict, { pick, during } = {}) {
  await openFile(page, file);
  await page.locator(".editor-group-container.active .view-line", { hasText: line }).first().click();
  // The last run's verdict goes, so that any verdict seen from now on is this run's.
  await runCommand(page, "Notifications: Clear All Notifications");
  const recorder = await recordNotifications(page);
  await runCommand(page, "hsir: Co-simulate against C");
  const title = page.locator(".quick-input-widget .quick-input-title", { hasText: "the C source of @fir" });
  await within(30_000, "the C-file dialog titled `the C source of @fir`", () => title.waitFor());
  const input = page.locator(".quick-input-widget input.input");
  // The dialog fills its input once it has looked at the default file.
  let offered = "";
  await within(10_000, "the C-file dialog offering .../c/fir.c", async () => {
    for (;;) {
      offered = await input.inputValue();
      if (offered.endsWith("/c/fir.c")) return;
      await page.waitForTimeout(100);
    }
  }).catch((error) => fail(`${error.message}; it offers \`${offered}\``));
  if (pick !== undefined) {
    await input.fill(pick);
    // The dialog follows the typed path before it takes it.
    await page.waitForTimeout(300);
  }
  await input.press("Enter");
  await within(30_000, "the C-file dialog closing", () =>
    page.locator(".quick-input-widget").waitFor({ state: "hidden" }),
  );
  await during?.(recorder);
  const shown = await within(120_000, `the co-simulation verdict (${verdict})`, async () => {
    for (;;) {
      const all = await recorder.seen();
      const found = all.find((text) => verdict.test(text));
      if (found !== undefined) return { verdict: found, all };
      const failed = all.find(
        (text) =>
          /hsir: co-simulation of @\w+ against .*: (PASS|FAIL)/.test(text) ||
          (/hsir: (Co-simulate|the language server)/.test(text) &&
            /cannot|failed|not running|error/i.test(text)),
      );
      if (failed !== undefined)
        fail(`Co-simulate against C did not end as expected (${verdict}):\n${failed}`);
      await page.waitForTimeout(100);
    }
  });
  return { ...shown, offered };
}

async function cosimStep(page, workspace) {
  const passed = await cosimFromPalette(
    page,
    COSIM_IR,
    /=\saddi\s%37,\s%35/,
    /hsir: co-simulation of @fir against fir\.c: PASS, \d+ cycles/,
  );
  // The progress notification: its title and Cancel button, with the server's stages.
  const progress = passed.all.filter((text) => text.includes("hsir: Co-simulate against C"));
  const stages = ["compiling the C program", "running the interpreter", "simulating the RTL"];
  if (!progress.some((text) => /\bCancel\b/.test(text) && stages.some((stage) => text.includes(stage)))) {
    fail(
      `no progress notification with a Cancel button and the co-simulation's stages was shown; notifications:\n${passed.all.join("\n---\n")}`,
    );
  }
  const steps = progress.map((t) => t.split("\n").find((l) => l.includes("Co-simulate against C")));
  log(`Co-simulate against C: the dialog offered ${path.relative(workspace, passed.offered)}`);
  log(`Co-simulate against C: progress: ${steps.join(" | ")}`);
  log(`Co-simulate against C: ${passed.verdict.split("\n")[0]}`);

  // The altered copy: its loop subtracts, so the kernel's return value differs from C's.
  const failed = await cosimFromPalette(
    page,
    COSIM_ALTERED,
    /=\ssubi\s%37,\s%35/,
    /hsir: co-simulation of @fir against fir\.c: FAIL/,
  );
  if (!/interpreter: return: got -?\d+, C says -?\d+/.test(failed.verdict)) {
    fail(`the FAIL verdict does not name the mismatching element:\n${failed.verdict}`);
  }
  log(`Co-simulate against C (altered): ${failed.verdict.split("\n")[0]}`);
  // The mismatches, one per line, in the output panel the failure opened.
  const output = page.locator(".part.panel .monaco-editor .view-lines").first();
  await within(30_000, "the output panel listing the mismatches", async () => {
    for (;;) {
      const text = (await output.innerText().catch(() => "")).replace(/\u00a0/g, " ");
      if (/rtl: return: got -?\d+, C says -?\d+/.test(text)) return;
      await page.waitForTimeout(200);
    }
  });
  log("Co-simulate against C (altered): the output panel lists the mismatches");
  await runCommand(page, "View: Hide Panel");

  // Another C file typed into the dialog, a program that never ends: the progress
  // notification's Cancel stops it, and the cancellation is said.
  const forever = path.join(workspace, "c", "forever.c");
  await cosimFromPalette(page, COSIM_IR, /=\saddi\s%37,\s%35/, /hsir: co-simulation cancelled/, {
    pick: forever,
    during: async () => {
      const running = page.locator(".notifications-toasts .notification-list-item", {
        hasText: "running the C program",
      });
      await within(60_000, "the progress saying the C program runs", () => running.first().waitFor());
      await running.first().getByRole("button", { name: "Cancel" }).click();
    },
  });
  log("Co-simulate against C: a C program that never ends, cancelled from the progress notification");
}

async function main() {
  const { hsir } = checkPrerequisites();
  fs.mkdirSync(cacheDir, { recursive: true });
  installExtensionDependencies();
  if (installOnly) {
    installCodeServer();
    return;
  }
  const { chromium } = await import(path.join(extensionDir, "node_modules", "playwright-core", "index.mjs"));
  const vsix = packageExtension();
  const entry = installCodeServer();
  const paths = prepareRun(hsir);
  log(`run folder: ${paths.dir}`);
  installVsix(entry, paths, vsix);

  const port = await freePort();
  const server = startCodeServer(entry, paths, port);
  let browser;
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await server.stop();
  };
  process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
  process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));
  let page;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, server, 60_000);
    log(`code-server is up on port ${port}`);
    browser = await chromium.launchPersistentContext(paths.browserProfile, {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width: 1600, height: 1000 },
      permissions: ["clipboard-read", "clipboard-write"],
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(30_000);
    await page.goto(`${base}/?folder=${encodeURIComponent(paths.workspace)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    await page
      .locator(".explorer-folders-view, .explorer-viewlet")
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(() => undefined);
    log("the workbench is up");

    // 2. A fixture with a known diagnostic: the status bar, the Problems panel, the squiggle.
    await within(60_000, "opening the diagnostics fixture", () => openFile(page, "unknown_buffer_type.mlir"));
    const status = page.locator('.statusbar-item[aria-label^="hsir language server"]');
    await within(60_000, "the hsir status bar item", () => status.first().waitFor());
    await within(60_000, "the status bar item saying the server is ready", () =>
      page.locator('.statusbar-item[aria-label="hsir language server: ready"]').waitFor(),
    );
    log(`status bar: ${await status.first().getAttribute("aria-label")}`);
    await within(30_000, "a squiggle in the fixture", () =>
      page.locator(".editor-group-container.active .squiggly-error").first().waitFor(),
    );
    await runCommand(page, "Problems: Focus on Problems View");
    const problems = page.locator(".markers-panel");
    await within(30_000, "HS2001 in the Problems panel", () =>
      problems.getByText("HS2001").first().waitFor(),
    );
    const problemText = await problems.innerText();
    if (!/unknown buffer type/.test(problemText))
      fail(`the Problems panel lacks the message:\n${problemText}`);
    log("Problems panel shows HS2001 (unknown buffer type)");

    // 3. The example kernel beside it; hover a buffer for its latencies.
    await runCommand(page, "View: Split Editor Right");
    await within(60_000, "opening kernel.mlir", () => openFile(page, "kernel.mlir"));
    // The line `%ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, ...`. Inlay hints add text
    // after `%ib`, and the editor renders spaces as no-break spaces (`\s` matches both).
    const bufferLinePattern = /buffer\s%i,\sbufferType\s=\sONE_SLOT_BREAK_R/;
    const bufferLine = page.locator(".editor-group-container.active .view-line", {
      hasText: bufferLinePattern,
    });
    await bufferLine.waitFor();
    const bufferWord = bufferLine.locator("span > span", { hasText: /^buffer$/ }).first();
    const hover = page
      .locator(".monaco-hover:visible, .monaco-resizable-hover:visible")
      .filter({ hasText: "latency" });
    await within(60_000, "the buffer hover with its latencies", async () => {
      for (;;) {
        await page.mouse.move(10, 10);
        await bufferWord.hover();
        try {
          await hover.first().waitFor({ timeout: 4000 });
          return;
        } catch {
          // The server may still be analysing; hover again.
        }
      }
    });
    const hoverText = await hover.first().innerText();
    if (!/ONE_SLOT_BREAK_R/.test(hoverText) || !/latency: D0 V0 R1/.test(hoverText)) {
      fail(`the buffer hover does not give the buffer's timing:\n${hoverText}`);
    }
    log(`hover: ${hoverText.replace(/\s+/g, " ").slice(0, 160)}`);
    fs.mkdirSync(path.dirname(screenshotPath), { recursive: true });
    await page.screenshot({ path: screenshotPath });
    log(`screenshot: ${screenshotPath}`);

    // 4. Generate RTL from the palette, with the cursor in @accumulate.
    await page.mouse.move(10, 10);
    await bufferLine.click();
    await runCommand(page, "hsir: Generate RTL");
    const verilog = path.join(paths.workspace, "rtl-out", "accumulate.v");
    await within(120_000, `Generate RTL writing ${verilog}`, async () => {
      while (!fs.existsSync(verilog)) {
        const shown = await notifications(page);
        if (/hsir: .*(failed|no RTL written|not running)/i.test(shown))
          fail(`Generate RTL failed:\n${shown}`);
        await page.waitForTimeout(250);
      }
    });
    const written = fs.readFileSync(verilog, "utf8");
    if (!/\bmodule\s+accumulate\b/.test(written))
      fail(`${verilog} has no module accumulate:\n${written.slice(0, 400)}`);
    await within(30_000, "accumulate.v opened in the editor", () =>
      page.locator(".tab", { hasText: "accumulate.v" }).first().waitFor(),
    );
    await waitForNotification(page, /wrote \d+ files? for @accumulate/, 30_000, "the Generate RTL summary");
    log(
      `Generate RTL wrote ${path.relative(paths.workspace, verilog)} (${written.length} bytes) and opened it`,
    );

    // 5. Show Dataflow Graph: the graph in a webview; a click on the control_merge's node
    // selects the op in the editor (the status bar's cursor position says where).
    // One editor group and no panel, so that the graph gets room in the screenshot.
    await runCommand(page, "View: Join All Editor Groups");
    await runCommand(page, "View: Hide Panel");
    await openFile(page, "kernel.mlir");
    await page.locator(".editor-group-container.active .view-line", { hasText: bufferLinePattern }).click();
    await runCommand(page, "hsir: Show Dataflow Graph");
    const graphNode = await within(60_000, "the graph view with the control_merge node", async () => {
      for (;;) {
        const shown = await notifications(page);
        if (/hsir: .*(not available|failed|not open|Show Dataflow Graph:)/.test(shown))
          fail(`Show Dataflow Graph did not show the graph:\n${shown}`);
        for (const frame of page.frames()) {
          const node = frame.locator("#graph svg g.node", { hasText: "control_merge" }).first();
          if ((await node.count().catch(() => 0)) > 0) return node;
        }
        await page.waitForTimeout(250);
      }
    });
    const nodeLine = Number(await graphNode.getAttribute("data-line"));
    const nodeStart = Number(await graphNode.getAttribute("data-start"));
    const nodeEnd = Number(await graphNode.getAttribute("data-end"));
    const kernelText = fs.readFileSync(path.join(paths.workspace, "kernel.mlir"), "utf8");
    if (kernelText.slice(nodeStart, nodeEnd) !== "control_merge") {
      fail(
        `the control_merge node points at bytes ${nodeStart}..${nodeEnd}: ${JSON.stringify(kernelText.slice(nodeStart, nodeEnd))}`,
      );
    }
    await graphNode.click();
    const cursor = page.locator(".statusbar-item", {
      hasText: new RegExp(`Ln ${nodeLine + 1}, Col \\d+ \\(${nodeEnd - nodeStart} selected\\)`),
    });
    await within(30_000, `the editor selecting control_merge (line ${nodeLine + 1}) after the click`, () =>
      cursor.first().waitFor(),
    );
    log(
      `Show Dataflow Graph: the graph is shown; clicking control_merge selected it (${await cursor.first().innerText()})`,
    );
    // The progress notification goes once the answer is in; wait for it, for a clean picture.
    await page
      .locator(".notifications-toasts .notification-list-item", { hasText: "Show Dataflow Graph" })
      .waitFor({ state: "detached", timeout: 10_000 })
      .catch(() => undefined);
    const graphShot = path.join(path.dirname(screenshotPath), "vscode-graph.png");
    await page.screenshot({ path: graphShot });
    log(`screenshot: ${graphShot}`);

    // Place buffers: from the palette in sum_loop.mlir (no buffers yet), FPGA20 picked in the
    // quick pick; the server writes the buffers into the editor's text and sums up.
    await openFile(page, "sum_loop.mlir");
    // Inlay hints put types after the results (`%buf0 : <i1> = buffer ...`), so the patterns
    // start at the `=`.
    const bufferLines = page.locator(".editor-group-container.active .view-line", {
      hasText: /=\sbuffer\s%/,
    });
    if ((await bufferLines.count()) !== 0) fail("sum_loop.mlir has buffers before placement");
    await page.locator(".editor-group-container.active .view-line", { hasText: /=\scmpi\sslt,/ }).click();
    await runCommand(page, "hsir: Place buffers (FPGA20 / FPL22)");
    const fpga20 = page
      .locator(".quick-input-widget .monaco-list-row")
      .filter({ has: page.locator(".label-name", { hasText: /^FPGA20$/ }) })
      .first();
    await within(30_000, "the algorithm quick pick", () => fpga20.waitFor());
    await fpga20.click();
    await waitForNotification(
      page,
      /hsir: @sum_loop: fpga20 \d+ buffers/,
      120_000,
      "the Place buffers summary",
    );
    await within(30_000, "a placed buffer in the editor", () => bufferLines.first().waitFor());
    log(
      `Place buffers: ${await bufferLines.count()} buffer lines in view; ${(await notifications(page))
        .split("\n")
        .find((l) => /@sum_loop: fpga20/.test(l))}`,
    );

    // 6. Co-simulate against C: the kernel passes, its altered copy fails naming the element.
    if (paths.cosim) {
      await cosimStep(page, paths.workspace);
    } else {
      log(`skipped Co-simulate against C: ${suiteDir} is missing`);
    }

    // 7. A settings change reaches the running server (didChangeConfiguration): HS2001 as a
    // warning turns the fixture's errors into warnings.
    await editUserSettings(page, paths, (settings) => {
      settings["hsir.diagnostics.severity"] = { HS2001: "warning" };
    });
    await runCommand(page, "Problems: Focus on Problems View");
    await within(60_000, "HS2001 shown as a warning after the settings change", async () => {
      for (;;) {
        const rows = problems.locator(".monaco-list-row", { hasText: "HS2001" });
        const errors = await rows.locator(".codicon-error").count();
        const warnings = await rows.locator(".codicon-warning").count();
        if (errors === 0 && warnings >= 6) return;
        await page.waitForTimeout(250);
      }
    });
    log("a settings change made HS2001 a warning in the Problems panel");

    // 8. A server path that does not exist, set for this workspace (written to disk, as a
    // project's .vscode/settings.json is): the server restarts, the status bar says error,
    // and the message names the expanded path and offers the settings.
    const missing = path.join(paths.workspace, "no-such-hsir");
    fs.mkdirSync(path.join(paths.workspace, ".vscode"), { recursive: true });
    fs.writeFileSync(
      path.join(paths.workspace, ".vscode", "settings.json"),
      JSON.stringify({ "hsir.server.path": "${workspaceFolder}/no-such-hsir" }, null, 2),
    );
    await within(30_000, "the status bar saying the server failed", () =>
      page.locator('.statusbar-item[aria-label="hsir language server: error"]').waitFor(),
    );
    const missingMessage = page
      .locator(".notifications-toasts .notification-list-item", { hasText: "does not exist" })
      .first();
    await within(30_000, "the missing-server message", () => missingMessage.waitFor());
    const missingText = await missingMessage.innerText();
    if (!missingText.includes(missing) || !/Open Settings/.test(missingText)) {
      fail(`the missing-server message does not name the path or offer the settings:\n${missingText}`);
    }
    log(`a missing server: ${missingText.split("\n").find((l) => l.includes("does not exist"))}`);
    log("all steps passed");
  } catch (error) {
    if (page) {
      const failureShot = path.join(paths.dir, "failure.png");
      await page.screenshot({ path: failureShot }).catch(() => undefined);
      console.error(`screenshot of the failure: ${failureShot}`);
      console.error(`notifications:\n${await notifications(page).catch(() => "(none)")}`);
    }
    console.error(`code-server log (${server.logFile}):\n${tail(server.logFile)}`);
    for (const log of findFiles(path.join(paths.userData, "logs"), /-hsir\.log$/)) {
      console.error(`the extension's output (${log}):\n${tail(log, 60)}`);
    }
    throw error;
  } finally {
    await cleanup();
    log("code-server stopped");
  }
}

const watchdog = setTimeout(() => {
  console.error(`e2e: FAILED: the whole run took longer than ${totalTimeout / 1000}s`);
  process.exit(1);
}, totalTimeout);
watchdog.unref();

main().then(
  () => {
    log("PASSED");
    process.exit(0);
  },
  (error) => {
    console.error(`e2e: FAILED: ${error instanceof Failure ? error.message : (error?.stack ?? error)}`);
    process.exit(1);
  },
);
