// The dataflow-graph view: a webview showing the SVG that the server's `hsir.showGraph`
// returns. Nodes carry where their op is (`data-start`/`data-end` byte offsets, or
// `data-offset`, or `data-range`); clicking one selects that text in the editor.

import * as crypto from "node:crypto";
import * as vscode from "vscode";

import { indexOfByteOffset, nodeRange } from "./offsets";

interface RevealMessage {
  type: "reveal";
  start?: string | null;
  end?: string | null;
  offset?: string | null;
  range?: string | null;
}

type Message = RevealMessage | { type: "refresh" };

/** The one graph panel; showing another function's graph reuses it. */
export class GraphPanel {
  private static current: GraphPanel | undefined;

  private readonly panel: vscode.WebviewPanel;
  private document: vscode.Uri;
  private column: vscode.ViewColumn | undefined;
  private refresh: () => Promise<void>;
  private readonly disposables: vscode.Disposable[] = [];

  static show(
    document: vscode.Uri,
    column: vscode.ViewColumn | undefined,
    title: string,
    svg: string,
    refresh: () => Promise<void>,
  ): GraphPanel {
    let shown = GraphPanel.current;
    if (shown === undefined) {
      const panel = vscode.window.createWebviewPanel(
        "hsir.graph",
        title,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [] },
      );
      shown = new GraphPanel(panel, document, column, refresh);
      GraphPanel.current = shown;
    } else {
      shown.panel.reveal(undefined, true);
    }
    shown.document = document;
    shown.column = column;
    shown.refresh = refresh;
    shown.panel.title = title;
    shown.panel.webview.html = page(shown.panel.webview, title, svg);
    return shown;
  }

  private constructor(
    panel: vscode.WebviewPanel,
    document: vscode.Uri,
    column: vscode.ViewColumn | undefined,
    refresh: () => Promise<void>,
  ) {
    this.panel = panel;
    this.document = document;
    this.column = column;
    this.refresh = refresh;
    this.panel.onDidDispose(() => this.dispose(), undefined, this.disposables);
    this.panel.webview.onDidReceiveMessage((m: Message) => this.receive(m), undefined, this.disposables);
  }

  private async receive(message: Message): Promise<void> {
    if (message.type === "refresh") {
      await this.refresh();
      return;
    }
    if (message.type !== "reveal") {
      return;
    }
    const range = nodeRange(message);
    if (range === undefined) {
      return;
    }
    const document = await vscode.workspace.openTextDocument(this.document);
    const text = document.getText();
    const start = document.positionAt(indexOfByteOffset(text, range.start));
    let selection: vscode.Range;
    if (range.end !== undefined) {
      selection = new vscode.Range(start, document.positionAt(indexOfByteOffset(text, range.end)));
    } else {
      // Only a start: select the name there (the op, or the value it defines).
      selection = document.getWordRangeAtPosition(start, /[%@^]?[\w$.#-]+/) ?? new vscode.Range(start, start);
    }
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: this.column ?? vscode.ViewColumn.One,
      selection: new vscode.Selection(selection.start, selection.end),
    });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    if (GraphPanel.current === this) {
      GraphPanel.current = undefined;
    }
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG without the XML prolog and doctype, which have no place inside HTML. */
export function inlineSvg(svg: string): string {
  return svg
    .replace(/<\?xml[^>]*\?>/g, "")
    .replace(/<!DOCTYPE[^>[]*(\[[^\]]*\])?[^>]*>/gi, "")
    .trim();
}

function page(webview: vscode.Webview, title: string, svg: string): string {
  const nonce = crypto.randomBytes(16).toString("base64");
  // Scripts only with the nonce: a script inside the SVG (or an on* attribute) does not run.
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; padding: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); }
  #bar { position: sticky; top: 0; z-index: 1; display: flex; align-items: center; gap: 6px; padding: 4px 8px;
         background: var(--vscode-editor-background); border-bottom: 1px solid var(--vscode-panel-border); }
  #bar button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
                border: none; padding: 2px 8px; cursor: pointer; }
  #bar button:hover { background: var(--vscode-button-secondaryHoverBackground); }
  #bar .hint { opacity: 0.7; margin-left: 8px; }
  #graph { padding: 8px; }
  #graph svg { display: block; }
  #graph [data-start], #graph [data-offset], #graph [data-range] { cursor: pointer; }
  #graph [data-start]:hover > *, #graph [data-offset]:hover > *, #graph [data-range]:hover > * { stroke-width: 2px; }
  #graph .hsir-selected > polygon, #graph .hsir-selected > ellipse, #graph .hsir-selected > path,
  #graph .hsir-selected > rect { stroke: var(--vscode-focusBorder); stroke-width: 3px; }
  #graph :focus { outline: 1px dashed var(--vscode-focusBorder); }
</style>
</head>
<body>
<div id="bar">
  <button id="zoom-out" title="Zoom out">&minus;</button>
  <button id="zoom-in" title="Zoom in">+</button>
  <button id="zoom-fit" title="Fit to the window">Fit</button>
  <button id="zoom-one" title="Actual size">1:1</button>
  <button id="refresh" title="Ask the server again">Refresh</button>
  <span class="hint">${escapeHtml(title)}: click a node to show its op</span>
</div>
<div id="graph">${inlineSvg(svg)}</div>
<script nonce="${nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const graph = document.getElementById("graph");
  const svg = graph.querySelector("svg");
  const located = "[data-start],[data-offset],[data-range]";
  let natural = null;
  let scale = 1;
  function measure() {
    if (svg && natural === null) {
      const box = svg.getBoundingClientRect();
      natural = { width: box.width || 1, height: box.height || 1 };
    }
  }
  function zoom(next) {
    if (!svg) return;
    measure();
    scale = Math.min(8, Math.max(0.05, next));
    svg.style.width = natural.width * scale + "px";
    svg.style.height = natural.height * scale + "px";
  }
  function fit() {
    measure();
    if (natural) zoom(Math.min(1, (window.innerWidth - 24) / natural.width));
  }
  document.getElementById("zoom-in").addEventListener("click", () => zoom(scale * 1.25));
  document.getElementById("zoom-out").addEventListener("click", () => zoom(scale / 1.25));
  document.getElementById("zoom-fit").addEventListener("click", fit);
  document.getElementById("zoom-one").addEventListener("click", () => zoom(1));
  document.getElementById("refresh").addEventListener("click", () => vscode.postMessage({ type: "refresh" }));
  graph.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    zoom(scale * (event.deltaY < 0 ? 1.1 : 1 / 1.1));
  }, { passive: false });
  function reveal(node) {
    for (const old of graph.querySelectorAll(".hsir-selected")) old.classList.remove("hsir-selected");
    node.classList.add("hsir-selected");
    vscode.postMessage({
      type: "reveal",
      start: node.getAttribute("data-start"),
      end: node.getAttribute("data-end"),
      offset: node.getAttribute("data-offset"),
      range: node.getAttribute("data-range"),
    });
  }
  for (const node of graph.querySelectorAll(located)) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
  }
  graph.addEventListener("click", (event) => {
    const node = event.target instanceof Element ? event.target.closest(located) : null;
    if (node) reveal(node);
  });
  graph.addEventListener("keydown", (event) => {
    const node = event.target instanceof Element ? event.target.closest(located) : null;
    if (node && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      reveal(node);
    }
  });
  fit();
})();
</script>
</body>
</html>`;
}
