// The extension's entry point: finds the `hsir` binary, runs `hsir lsp` through
// vscode-languageclient, keeps the server's settings in step with VS Code's, and registers the
// commands and the status bar item.

import * as path from "node:path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  Executable,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  State,
} from "vscode-languageclient/node";

import * as commands from "./commands";
import { defaultContext, findServer, ServerLookup } from "./serverPath";
import { serverArgsSetting, serverPathSetting, serverSettings } from "./settings";
import { Status } from "./status";

const CLIENT_COMMANDS = {
  generateRtl: "hsir.client.generateRtl",
  showGraph: "hsir.client.showGraph",
  placeBuffers: "hsir.client.placeBuffers",
  cosim: "hsir.client.cosim",
  restartServer: "hsir.client.restartServer",
  showOutput: "hsir.client.showOutput",
} as const;

class Extension implements commands.Host, vscode.Disposable {
  readonly output: vscode.OutputChannel;
  private readonly status: Status;
  private client: LanguageClient | undefined;
  /** Set while we stop the client ourselves, so that its stopping is not shown as an error. */
  private stopping = false;
  /** Serialises starts and restarts. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel("hsir");
    this.status = new Status(CLIENT_COMMANDS.showOutput);
  }

  /** The client once a start in progress has finished; `undefined` (after saying so) when the
   * server is not running. */
  async runningClient(): Promise<LanguageClient | undefined> {
    await this.queue.catch(() => undefined);
    if (this.client?.state === State.Running) {
      return this.client;
    }
    void vscode.window
      .showErrorMessage("hsir: the language server is not running.", "Restart Server", "Show Output")
      .then((choice) => {
        if (choice === "Restart Server") {
          void vscode.commands.executeCommand(CLIENT_COMMANDS.restartServer);
        } else if (choice === "Show Output") {
          this.output.show(true);
        }
      });
    return undefined;
  }

  /** Queues a (re)start: the old client stops before the new one starts. */
  restart(): Promise<void> {
    this.queue = this.queue.then(
      async () => {
        await this.stop();
        await this.start();
      },
      () => undefined,
    );
    return this.queue;
  }

  private lookup(): ServerLookup {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    return findServer(
      defaultContext(
        serverPathSetting(),
        folder?.scheme === "file" ? folder.fsPath : undefined,
        this.context.extensionPath,
      ),
    );
  }

  private async start(): Promise<void> {
    this.status.set("starting");
    const lookup = this.lookup();
    if (lookup.found === undefined) {
      this.status.set("error", lookup.problem);
      this.output.appendLine(`hsir: ${lookup.problem}`);
      for (const place of lookup.tried) {
        this.output.appendLine(`  looked at: ${place}`);
      }
      void this.explainMissingServer(lookup.problem, lookup.fromSetting);
      return;
    }
    const server: Executable = {
      command: lookup.found.command,
      args: ["lsp", ...serverArgsSetting()],
    };
    this.output.appendLine(
      `hsir: starting ${server.command} ${server.args?.join(" ")} (from ${lookup.found.source})`,
    );
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "mlir" },
        { scheme: "untitled", language: "mlir" },
      ],
      initializationOptions: serverSettings(),
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      diagnosticCollectionName: "hsir",
      middleware: {
        // The server's code actions ("Generate RTL for @f") run its commands; take them through
        // the same path as the palette, with the progress notification and the opened file.
        executeCommand: async (command, args, next) => {
          switch (command) {
            case commands.SERVER_COMMANDS.generateRtl:
              return commands.generateRtl(this, args[0]);
            case commands.SERVER_COMMANDS.showGraph:
              return commands.showGraph(this, args[0]);
            case commands.SERVER_COMMANDS.placeBuffers:
              return commands.placeBuffers(this, args[0]);
            case commands.SERVER_COMMANDS.cosim:
              return commands.cosim(this, args[0]);
            default:
              return next(command, args);
          }
        },
      },
    };
    const client = new LanguageClient("hsir", "hsir", { run: server, debug: server }, clientOptions);
    this.client = client;
    client.onDidChangeState((event) => {
      if (this.client !== client) {
        return;
      }
      if (event.newState === State.Starting) {
        this.status.set("starting");
      } else if (event.newState === State.Running) {
        const info = client.initializeResult?.serverInfo;
        this.status.set("ready", `${info?.name ?? "hsir"} ${info?.version ?? ""} at ${server.command}`);
      } else if (event.newState === State.Stopped && !this.stopping) {
        this.status.set("error", "the server stopped; see the output");
      }
    });
    try {
      await client.start();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.status.set("error", message);
      this.output.appendLine(`hsir: the server did not start: ${message}`);
      void vscode.window
        .showErrorMessage(
          `hsir: the language server (${server.command}) did not start: ${message}`,
          "Show Output",
          "Open Settings",
        )
        .then((choice) => {
          if (choice === "Show Output") {
            this.output.show(true);
          } else if (choice === "Open Settings") {
            void vscode.commands.executeCommand("workbench.action.openSettings", "hsir.server");
          }
        });
    }
  }

  private async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    this.stopping = true;
    try {
      await client.dispose(2000);
    } catch (error) {
      this.output.appendLine(
        `hsir: stopping the server: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      this.stopping = false;
      this.status.set("stopped");
    }
  }

  private async explainMissingServer(problem: string, fromSetting: boolean): Promise<void> {
    const remedy = fromSetting
      ? "Correct the setting, or clear it to use `hsir` from PATH."
      : "Install it with `cargo install --path lsp` from the hsir sources, or set hsir.server.path.";
    const choice = await vscode.window.showErrorMessage(
      `hsir: ${problem}. ${remedy}`,
      "Open Settings",
      "Open README",
      "Show Output",
    );
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "hsir.server.path");
    } else if (choice === "Open README") {
      const readme = vscode.Uri.file(path.join(this.context.extensionPath, "README.md"));
      await vscode.commands.executeCommand("markdown.showPreview", readme);
    } else if (choice === "Show Output") {
      this.output.show(true);
    }
  }

  /** Sends the settings to a running server; restarts it when the server's own settings change. */
  onConfiguration(event: vscode.ConfigurationChangeEvent): void {
    if (event.affectsConfiguration("hsir.server")) {
      void this.restart();
      return;
    }
    if (event.affectsConfiguration("hsir") && this.client?.state === State.Running) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { hsir: serverSettings() },
      });
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.status.dispose();
    this.output.dispose();
  }
}

let extension: Extension | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const ext = new Extension(context);
  extension = ext;
  context.subscriptions.push(
    vscode.commands.registerCommand(CLIENT_COMMANDS.generateRtl, () => commands.generateRtl(ext)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showGraph, () => commands.showGraph(ext)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.placeBuffers, () => commands.placeBuffers(ext)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.cosim, () => commands.cosim(ext)),
    vscode.commands.registerCommand(CLIENT_COMMANDS.restartServer, () => ext.restart()),
    vscode.commands.registerCommand(CLIENT_COMMANDS.showOutput, () => ext.output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => ext.onConfiguration(event)),
  );
  void ext.restart();
}

export async function deactivate(): Promise<void> {
  const ext = extension;
  extension = undefined;
  await ext?.dispose();
}
