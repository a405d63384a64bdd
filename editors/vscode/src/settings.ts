// The extension's settings as the server reads them (`initializationOptions` and
// `workspace/didChangeConfiguration`): `{ diagnostics: { severity }, rtl: { outputDir, hdl },
// buffers: { algorithm, period, timeLimit } }`.

import * as vscode from "vscode";

export interface ServerSettings {
  diagnostics: { severity: Record<string, string> };
  rtl: { outputDir: string; hdl: string };
  buffers: { algorithm: string; period: number; timeLimit: number };
}

export function serverSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration("hsir");
  // Configuration values are proxies; a JSON copy is what goes on the wire anyway.
  const severity = JSON.parse(JSON.stringify(config.get("diagnostics.severity") ?? {}));
  return {
    diagnostics: { severity: typeof severity === "object" && severity !== null ? severity : {} },
    rtl: {
      outputDir: config.get<string>("rtl.outputDir") || "rtl",
      hdl: config.get<string>("rtl.hdl") || "verilog",
    },
    buffers: {
      algorithm: config.get<string>("buffers.algorithm") || "fpga20",
      period: config.get<number>("buffers.period") ?? 4,
      timeLimit: config.get<number>("buffers.timeLimit") ?? 30,
    },
  };
}

export function serverPathSetting(): string {
  return vscode.workspace.getConfiguration("hsir").get<string>("server.path") ?? "";
}

export function serverArgsSetting(): string[] {
  const args = vscode.workspace.getConfiguration("hsir").get<unknown>("server.args");
  return Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : [];
}
