// Bundles the extension into one CommonJS file, dist/extension.js, with vscode-languageclient
// inlined, so that the .vsix needs no node_modules. `--unit` instead bundles the unit tests of
// the modules that do not need VS Code into out/unit/.
import * as esbuild from "esbuild";

const unit = process.argv.includes("--unit");

if (unit) {
  await esbuild.build({
    entryPoints: ["test/unit/offsets.test.ts", "test/unit/serverPath.test.ts"],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    outdir: "out/unit",
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
} else {
  await esbuild.build({
    entryPoints: ["src/extension.ts"],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    outfile: "dist/extension.js",
    external: ["vscode"],
    sourcemap: false,
    minify: process.argv.includes("--minify"),
    logLevel: "warning",
  });
}
