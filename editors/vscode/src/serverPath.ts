// Finding the `hsir` binary: the `hsir.server.path` setting, then `hsir` on PATH, then the
// binary a platform-specific package bundles in `server/`. Plain Node, no `vscode` import, so
// that the unit tests run without an editor.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export type ServerSource = "setting" | "PATH" | "bundled";

export interface FoundServer {
  command: string;
  source: ServerSource;
}

/** Either the binary, or why there is none and where we looked. */
export type ServerLookup =
  { found: FoundServer } | { found?: undefined; problem: string; tried: string[]; fromSetting: boolean };

export interface LookupContext {
  /** `hsir.server.path` as the user wrote it; empty when unset. */
  setting: string;
  /** The first workspace folder, for `${workspaceFolder}` and relative paths. */
  workspaceFolder: string | undefined;
  /** The extension's own folder, which holds `server/` in a platform-specific package. */
  extensionPath: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

export function defaultContext(
  setting: string,
  workspaceFolder: string | undefined,
  extensionPath: string,
): LookupContext {
  return {
    setting,
    workspaceFolder,
    extensionPath,
    env: process.env,
    platform: process.platform,
    home: os.homedir(),
  };
}

/** The binary's file name on `platform`. */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "hsir.exe" : "hsir";
}

/**
 * The setting with `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`
 * expanded. A relative path is taken from the workspace folder. A bare name (no separator)
 * is returned as it is, to be looked up on PATH. `undefined` with a reason when a variable
 * cannot be expanded.
 */
export function expandSetting(
  raw: string,
  cx: Pick<LookupContext, "workspaceFolder" | "env" | "home" | "platform">,
): { path: string } | { problem: string } {
  let value = raw.trim();
  if (value.includes("${workspaceFolder}")) {
    if (cx.workspaceFolder === undefined) {
      return {
        problem: `hsir.server.path (\`${raw}\`) uses \${workspaceFolder}, but no folder is open`,
      };
    }
    value = value.split("${workspaceFolder}").join(cx.workspaceFolder);
  }
  value = value.split("${userHome}").join(cx.home);
  value = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => cx.env[name] ?? "");
  if (value === "~" || value.startsWith("~/") || (cx.platform === "win32" && value.startsWith("~\\"))) {
    value = path.join(cx.home, value.slice(1));
  }
  const separators = cx.platform === "win32" ? /[\\/]/ : /\//;
  if (!separators.test(value)) {
    return { path: value };
  }
  if (!path.isAbsolute(value) && cx.workspaceFolder !== undefined) {
    value = path.resolve(cx.workspaceFolder, value);
  }
  return { path: value };
}

export function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (platform !== "win32") {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the PATH of `env` (with PATHEXT's extensions on Windows). */
export function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): string | undefined {
  const searchPath = env.PATH ?? env.Path ?? "";
  const delimiter = platform === "win32" ? ";" : ":";
  const extensions =
    platform === "win32" && path.extname(name) === ""
      ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "")
      : [""];
  for (const dir of searchPath.split(delimiter)) {
    if (dir === "") {
      continue;
    }
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension);
      if (isExecutableFile(candidate, platform)) {
        return candidate;
      }
    }
  }
  return undefined;
}

export function findServer(cx: LookupContext): ServerLookup {
  const tried: string[] = [];
  if (cx.setting.trim() !== "") {
    const expanded = expandSetting(cx.setting, cx);
    if ("problem" in expanded) {
      return { problem: expanded.problem, tried, fromSetting: true };
    }
    const isBareName = !/[\\/]/.test(expanded.path);
    if (isBareName) {
      const onPath = findOnPath(expanded.path, cx.env, cx.platform);
      if (onPath !== undefined) {
        return { found: { command: onPath, source: "setting" } };
      }
      tried.push(`\`${expanded.path}\` on PATH`);
      return {
        problem: `hsir.server.path is \`${cx.setting}\`, and no \`${expanded.path}\` is on PATH`,
        tried,
        fromSetting: true,
      };
    }
    if (isExecutableFile(expanded.path, cx.platform)) {
      return { found: { command: expanded.path, source: "setting" } };
    }
    tried.push(expanded.path);
    const exists = fs.existsSync(expanded.path);
    return {
      problem: `hsir.server.path is \`${cx.setting}\`, but ${expanded.path} ${exists ? "is not an executable file" : "does not exist"}`,
      tried,
      fromSetting: true,
    };
  }
  const name = binaryName(cx.platform);
  const onPath = findOnPath(name, cx.env, cx.platform);
  if (onPath !== undefined) {
    return { found: { command: onPath, source: "PATH" } };
  }
  tried.push(`\`${name}\` on PATH`);
  const bundled = path.join(cx.extensionPath, "server", name);
  if (isExecutableFile(bundled, cx.platform)) {
    return { found: { command: bundled, source: "bundled" } };
  }
  tried.push(bundled);
  return {
    problem:
      "cannot find the hsir language server: hsir.server.path is not set, `hsir` is not on PATH, and this build of the extension bundles no server",
    tried,
    fromSetting: false,
  };
}
