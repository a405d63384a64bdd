// The status bar item: the server's state at a glance, and the way to its output.

import * as vscode from "vscode";

export type ServerState = "starting" | "ready" | "busy" | "stopped" | "error";

const ICONS: Record<ServerState, string> = {
  starting: "$(sync~spin)",
  ready: "$(check)",
  busy: "$(loading~spin)",
  stopped: "$(circle-slash)",
  error: "$(error)",
};

export class Status implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  state: ServerState = "stopped";

  constructor(showOutputCommand: string) {
    this.item = vscode.window.createStatusBarItem("hsir.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "hsir language server";
    this.item.command = showOutputCommand;
    this.set("starting");
    this.item.show();
  }

  /** Shows `state`; `detail` (the version, the error) goes into the tooltip. */
  set(state: ServerState, detail?: string): void {
    this.state = state;
    this.item.text = `${ICONS[state]} hsir`;
    const words = `hsir language server: ${state}`;
    this.item.accessibilityInformation = { label: words };
    this.item.tooltip = `${words}${detail ? `\n${detail}` : ""}\nClick to show the output.`;
    this.item.backgroundColor =
      state === "error" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
