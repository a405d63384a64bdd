// A platform-specific .vsix with the server inside: copies the given `hsir` binary to
// server/, builds, and packages for the VS Code target (linux-x64, darwin-arm64, win32-x64,
// ...). The extension finds server/hsir when neither the setting nor PATH gives one.
//
//   npm run package:platform -- --target linux-x64 --binary ../../target/release/hsir

import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function option(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const target = option("target");
const binary = option("binary");
if (!target || !binary) {
  console.error("usage: npm run package:platform -- --target <vscode target> --binary <path to hsir>");
  process.exit(2);
}
if (!existsSync(binary)) {
  console.error(`error: ${binary} does not exist; build it with cargo build --release`);
  process.exit(2);
}
const name = target.startsWith("win32-") ? "hsir.exe" : "hsir";
const serverDir = join(root, "server");
rmSync(serverDir, { recursive: true, force: true });
mkdirSync(serverDir);
copyFileSync(binary, join(serverDir, name));
chmodSync(join(serverDir, name), 0o755);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
try {
  execFileSync(npm, ["run", "typecheck"], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, ["esbuild.mjs", "--minify"], { cwd: root, stdio: "inherit" });
  execFileSync(
    npx,
    [
      "vsce",
      "package",
      "--no-dependencies",
      "--skip-license",
      "--allow-missing-repository",
      "--target",
      target,
      "-o",
      `hsir-${target}.vsix`,
    ],
    { cwd: root, stdio: "inherit" },
  );
} finally {
  rmSync(serverDir, { recursive: true, force: true });
}
