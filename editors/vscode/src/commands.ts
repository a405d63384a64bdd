// The commands that call the server: Generate RTL, Show Dataflow Graph, Place buffers and
// Co-simulate against C.
// Each runs the server's command with `workspace/executeCommand` under a progress
// notification, relaying the server's `$/progress` messages into it.

import * as path from "node:path";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  ResponseError,
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
} from "vscode-languageclient/node";

import { GraphPanel } from "./graph";

/** The server's command ids. */
export const SERVER_COMMANDS = {
  generateRtl: "hsir.generateRtl",
  showGraph: "hsir.showGraph",
  placeBuffers: "hsir.placeBuffers",
  cosim: "hsir.cosim",
} as const;

/** What the commands need from the extension. */
export interface Host {
  /** The client when the server is running; otherwise says why not and gives `undefined`. */
  runningClient(): Promise<LanguageClient | undefined>;
  output: vscode.OutputChannel;
}

/** The arguments all three server commands take. */
export interface TargetArgs {
  uri: string;
  function?: string;
  [key: string]: unknown;
}

interface RtlAnswer {
  top?: string;
  folder?: string;
  files?: string[];
  notes?: { code?: string; severity?: string; message?: string }[];
}

/** Whether the running server executes `command` (its `executeCommandProvider`). */
export function serverOffers(client: LanguageClient, command: string): boolean {
  const commands = client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  return commands.includes(command);
}

function notAvailable(client: LanguageClient, title: string, command: string): void {
  const info = client.initializeResult?.serverInfo;
  const server = info ? `${info.name} ${info.version ?? ""}`.trim() : "the running hsir";
  void vscode.window.showWarningMessage(
    `hsir: ${title} is not available in this server version (${server} does not offer \`${command}\`). Update hsir to use it.`,
  );
}

function unquoteSymbol(name: string): string {
  const bare = name.startsWith("@") ? name.slice(1) : name;
  return bare.length >= 2 && bare.startsWith('"') && bare.endsWith('"') ? bare.slice(1, -1) : bare;
}

/** The function or module around the cursor, from the server's outline. */
export async function functionAtCursor(editor: vscode.TextEditor): Promise<string | undefined> {
  const symbols = await vscode.commands.executeCommand<
    (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined
  >("vscode.executeDocumentSymbolProvider", editor.document.uri);
  const cursor = editor.selection.active;
  for (const symbol of symbols ?? []) {
    const range = "range" in symbol ? symbol.range : symbol.location.range;
    const isFunction = symbol.kind === vscode.SymbolKind.Function || symbol.kind === vscode.SymbolKind.Module;
    if (isFunction && range.contains(cursor) && symbol.name.startsWith("@")) {
      return unquoteSymbol(symbol.name);
    }
  }
  return undefined;
}

/** The active `.mlir` file and the function at its cursor, or `undefined` after saying why. */
async function activeTarget(
  title: string,
): Promise<{ args: TargetArgs; editor: vscode.TextEditor } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== "mlir") {
    void vscode.window.showErrorMessage(`hsir: ${title} works on an .mlir file; open one first.`);
    return undefined;
  }
  if (editor.document.uri.scheme !== "file") {
    void vscode.window.showErrorMessage(`hsir: ${title} needs a file on disk; save this one first.`);
    return undefined;
  }
  const name = await functionAtCursor(editor);
  const args: TargetArgs = { uri: editor.document.uri.toString() };
  if (name !== undefined) {
    args.function = name;
  }
  return { args, editor };
}

let progressTokens = 0;

/**
 * Runs a server command under a progress notification showing the server's messages. When
 * `cancellable`, the notification has a Cancel button, which sends the server
 * `window/workDoneProgress/cancel` for the command's token.
 */
async function runWithProgress<T>(
  client: LanguageClient,
  title: string,
  command: string,
  args: unknown[],
  cancellable = false,
): Promise<T> {
  progressTokens += 1;
  const token = `hsir-client-${process.pid}-${progressTokens}`;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `hsir: ${title}`, cancellable },
    async (progress, cancelled) => {
      const relay = client.onProgress(WorkDoneProgress.type, token, (value) => {
        if ((value.kind === "begin" || value.kind === "report") && value.message) {
          progress.report({ message: value.message });
        }
      });
      const cancel = cancelled.onCancellationRequested(() => {
        void client.sendNotification(WorkDoneProgressCancelNotification.type, { token });
      });
      try {
        return (await client.sendRequest(ExecuteCommandRequest.type, {
          command,
          arguments: args,
          workDoneToken: token,
        })) as T;
      } finally {
        relay.dispose();
        cancel.dispose();
      }
    },
  );
}

function failure(host: Host, title: string, error: unknown): void {
  const message = error instanceof ResponseError || error instanceof Error ? error.message : String(error);
  host.output.appendLine(`[${title}] ${message}`);
  void vscode.window.showErrorMessage(`hsir: ${message}`, "Show Problems", "Show Output").then((choice) => {
    if (choice === "Show Problems") {
      void vscode.commands.executeCommand("workbench.actions.view.problems");
    } else if (choice === "Show Output") {
      host.output.show(true);
    }
  });
}

function targetOf(given: unknown): TargetArgs | undefined {
  if (typeof given === "object" && given !== null && typeof (given as TargetArgs).uri === "string") {
    return given as TargetArgs;
  }
  return undefined;
}

/**
 * Generate RTL: for `given` (a code action's arguments) or the active editor's function at
 * the cursor. Opens the top function's Verilog when done.
 */
export async function generateRtl(host: Host, given?: unknown): Promise<RtlAnswer | undefined> {
  const title = "Generate RTL";
  const client = await host.runningClient();
  if (client === undefined) {
    return undefined;
  }
  const args = targetOf(given) ?? (await activeTarget(title))?.args;
  if (args === undefined) {
    return undefined;
  }
  if (!serverOffers(client, SERVER_COMMANDS.generateRtl)) {
    notAvailable(client, title, SERVER_COMMANDS.generateRtl);
    return undefined;
  }
  let answer: RtlAnswer;
  try {
    answer =
      (await runWithProgress<RtlAnswer | null>(client, title, SERVER_COMMANDS.generateRtl, [args])) ?? {};
  } catch (error) {
    failure(host, title, error);
    return undefined;
  }
  const files = answer.files ?? [];
  host.output.appendLine(`[${title}] @${answer.top ?? "?"}: ${files.join(", ")}`);
  const verilog = files.filter((f) => f.endsWith(".v"));
  const top = verilog.find((f) => path.basename(f) === `${answer.top}.v`) ?? verilog[0];
  if (top !== undefined) {
    await vscode.window.showTextDocument(vscode.Uri.file(top), { preview: false });
  }
  const notes = answer.notes ?? [];
  const noteText =
    notes.length === 0
      ? ""
      : ` (${notes.length} note${notes.length === 1 ? "" : "s"}: ${notes.map((n) => n.code).join(", ")})`;
  void vscode.window
    .showInformationMessage(
      `hsir: wrote ${files.length} file${files.length === 1 ? "" : "s"} for @${answer.top ?? "?"} to ${answer.folder ?? "?"}${noteText}`,
      "Reveal in Explorer",
    )
    .then((choice) => {
      if (choice === "Reveal in Explorer" && top !== undefined) {
        void vscode.commands.executeCommand("revealInExplorer", vscode.Uri.file(top));
      }
    });
  return answer;
}

interface CosimAnswer {
  verdict?: string;
  message?: string;
  cycles?: number | null;
  mismatches?: { side?: string; output?: string; index?: number | null; got?: string; expected?: string }[];
}

/**
 * The kernel's C file the dialog starts at: `NAME.c` beside the .mlir or in a sibling `c/`
 * folder, NAME being the function or the file name's longest `_`-separated prefix with one
 * (the server looks the same way when no C file is given).
 */
export async function defaultCFile(mlir: vscode.Uri, fn?: string): Promise<vscode.Uri | undefined> {
  const dir = path.dirname(mlir.fsPath);
  const stem = path.basename(mlir.fsPath).replace(/\.[^.]*$/, "");
  const parts = stem.split("_");
  const names = fn ? [fn] : [];
  for (let n = parts.length; n >= 1; n--) {
    const name = parts.slice(0, n).join("_");
    if (name !== "" && !names.includes(name)) {
      names.push(name);
    }
  }
  for (const name of names) {
    for (const folder of [dir, path.join(dir, "c"), path.join(dir, "..", "c")]) {
      const candidate = vscode.Uri.file(path.join(folder, `${name}.c`));
      try {
        await vscode.workspace.fs.stat(candidate);
        return candidate;
      } catch {
        // Not there; the next one.
      }
    }
  }
  return undefined;
}

/**
 * Co-simulate against C: asks for the kernel's C file (starting at the one named after the
 * kernel), then runs the server's `hsir.cosim` under cancellable progress and shows the verdict.
 */
export async function cosim(host: Host, given?: unknown): Promise<CosimAnswer | undefined> {
  const title = "Co-simulate against C";
  const client = await host.runningClient();
  if (client === undefined) {
    return undefined;
  }
  const args = targetOf(given) ?? (await activeTarget(title))?.args;
  if (args === undefined) {
    return undefined;
  }
  if (!serverOffers(client, SERVER_COMMANDS.cosim)) {
    notAvailable(client, title, SERVER_COMMANDS.cosim);
    return undefined;
  }
  if (typeof args.c !== "string") {
    const mlir = vscode.Uri.parse(args.uri);
    const start = await defaultCFile(mlir, args.function);
    const picked = await vscode.window.showOpenDialog({
      title: `hsir: the C source of ${args.function ? "@" + args.function : path.basename(mlir.fsPath)}`,
      defaultUri: start ?? vscode.Uri.file(path.dirname(mlir.fsPath)),
      canSelectMany: false,
      filters: { C: ["c"] },
      openLabel: "Co-simulate",
    });
    if (picked === undefined || picked.length === 0) {
      return undefined;
    }
    args.c = picked[0].fsPath;
  }
  let answer: CosimAnswer;
  try {
    answer =
      (await runWithProgress<CosimAnswer | null>(client, title, SERVER_COMMANDS.cosim, [args], true)) ?? {};
  } catch (error) {
    failure(host, title, error);
    return undefined;
  }
  // The server shows the verdict itself (window/showMessage, with the first mismatch of each
  // side); every mismatch goes to the output, which a failure opens in the panel.
  host.output.appendLine(`[${title}] ${answer.message ?? answer.verdict ?? "?"}`);
  for (const m of answer.mismatches ?? []) {
    const at = m.index === null || m.index === undefined ? m.output : `${m.output}[${m.index}]`;
    host.output.appendLine(`  ${m.side}: ${at}: got ${m.got}, C says ${m.expected}`);
  }
  if (answer.verdict === "fail") {
    host.output.show(true);
  } else if (answer.verdict === "cancelled") {
    void vscode.window.showInformationMessage(`hsir: ${answer.message ?? "co-simulation cancelled"}`);
  }
  return answer;
}

/** Show Dataflow Graph: the server's SVG of the function at the cursor, in a webview. */
export async function showGraph(host: Host, given?: unknown): Promise<void> {
  const title = "Show Dataflow Graph";
  const client = await host.runningClient();
  if (client === undefined) {
    return;
  }
  const target = targetOf(given)
    ? { args: targetOf(given) as TargetArgs, editor: undefined }
    : await activeTarget(title);
  if (target === undefined) {
    return;
  }
  if (!serverOffers(client, SERVER_COMMANDS.showGraph)) {
    notAvailable(client, title, SERVER_COMMANDS.showGraph);
    return;
  }
  const column = target.editor?.viewColumn;
  if (target.args.function === undefined && target.editor !== undefined) {
    // No function around the cursor in the outline: the server picks the one at the position.
    const cursor = target.editor.selection.active;
    target.args.position = { line: cursor.line, character: cursor.character };
  }
  const fetchAndShow = async (): Promise<void> => {
    let answer: { svg?: unknown; function?: unknown } | null;
    try {
      answer = await runWithProgress(client, title, SERVER_COMMANDS.showGraph, [target.args]);
    } catch (error) {
      failure(host, title, error);
      return;
    }
    if (typeof answer?.svg !== "string") {
      failure(host, title, new Error(`${title}: the server answered without an \`svg\` string`));
      return;
    }
    const shown = typeof answer.function === "string" ? answer.function : target.args.function;
    const name = shown ? `@${shown}` : path.basename(vscode.Uri.parse(target.args.uri).fsPath);
    GraphPanel.show(vscode.Uri.parse(target.args.uri), column, `Dataflow: ${name}`, answer.svg, fetchAndShow);
  };
  await fetchAndShow();
}

/** The algorithms of buffer placement, as the server names them. */
export const ALGORITHMS = [
  {
    id: "fpga20",
    label: "FPGA20",
    detail: "Throughput-driven placement with a clock-period constraint (FPGA'20)",
  },
  { id: "fpl22", label: "FPL22", detail: "Placement with a mixed-connection timing model (FPL'22)" },
] as const;

/** The algorithm to place with, asked with a quick pick whose first entry is the setting's. */
async function pickAlgorithm(): Promise<string | undefined> {
  const configured = vscode.workspace.getConfiguration("hsir").get<string>("buffers.algorithm") ?? "fpga20";
  const items = [...ALGORITHMS]
    .sort((a, b) => Number(b.id === configured) - Number(a.id === configured))
    .map((a) => ({
      label: a.label,
      detail: a.detail,
      id: a.id,
      description: a.id === configured ? "(setting)" : "",
    }));
  const picked = await vscode.window.showQuickPick(items, {
    title: "hsir: Place buffers",
    placeHolder: "The buffer-placement algorithm",
  });
  return picked?.id;
}

interface PlaceAnswer {
  applied?: boolean;
  cancelled?: boolean;
  message?: string;
  functions?: { function?: string; buffers?: number }[];
}

/**
 * Place buffers (FPGA20 / FPL22): the server's buffer placement for the function at the
 * cursor (or `given`, a code action's arguments, which name the algorithm). The server writes
 * the buffers into the document itself (`workspace/applyEdit`, for the version it placed) and
 * answers with a summary; it says itself when the document changed meanwhile.
 */
export async function placeBuffers(host: Host, given?: unknown): Promise<PlaceAnswer | undefined> {
  const title = "Place buffers";
  const client = await host.runningClient();
  if (client === undefined) {
    return undefined;
  }
  const args = targetOf(given) ?? (await activeTarget(title))?.args;
  if (args === undefined) {
    return undefined;
  }
  if (!serverOffers(client, SERVER_COMMANDS.placeBuffers)) {
    notAvailable(client, title, SERVER_COMMANDS.placeBuffers);
    return undefined;
  }
  if (typeof args.algorithm !== "string") {
    const algorithm = await pickAlgorithm();
    if (algorithm === undefined) {
      return undefined;
    }
    args.algorithm = algorithm;
  }
  const shown = `${title} (${String(args.algorithm).toUpperCase()})`;
  let answer: PlaceAnswer;
  try {
    answer =
      (await runWithProgress<PlaceAnswer | null>(
        client,
        shown,
        SERVER_COMMANDS.placeBuffers,
        [args],
        true,
      )) ?? {};
  } catch (error) {
    failure(host, title, error);
    return undefined;
  }
  host.output.appendLine(`[${shown}] ${answer.message ?? JSON.stringify(answer)}`);
  if (answer.applied || answer.cancelled) {
    void vscode.window.showInformationMessage(`hsir: ${answer.message ?? `${title} done`}`);
  }
  return answer;
}
