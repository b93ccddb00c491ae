/**
 * The Problems view: stale doc sections (the code a doc describes changed after the doc was last synced) and
 * architecture rule violations, refreshed (debounced) whenever the index, the graph or a doc changes.
 */
import * as vscode from 'vscode';
import type { ProblemsResult } from '../protocol/editor';
import { errorMessage } from './errors';
import { toUri } from './navigation-bridge';
import type { OracleClient } from './oracle-client';

export class ProblemsView implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('contextOracle');
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly changed = new vscode.EventEmitter<ProblemsResult>();
  /** Fires after every refresh, with what is now shown. */
  readonly onDidRefresh = this.changed.event;

  constructor(private readonly client: OracleClient, private readonly log: vscode.LogOutputChannel) {}

  /** Refresh soon (several triggers in a row make one request). */
  schedule(delayMs = 400): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; void this.refresh(); }, delayMs);
  }

  refresh(): Promise<void> {
    this.running = this.running.then(() => this.load(), () => this.load());
    return this.running;
  }

  private async load(): Promise<void> {
    if (!this.client.isRunning()) return;
    let result: ProblemsResult;
    try {
      result = await this.client.request('contextOracle/problems', {});
    } catch (e) {
      this.log.debug(`problems not refreshed: ${errorMessage(e)}`);
      return;
    }
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const add = (path: string, d: vscode.Diagnostic): void => {
      byFile.set(path, [...(byFile.get(path) ?? []), d]);
    };
    for (const s of result.staleDocs) {
      const d = new vscode.Diagnostic(new vscode.Range(s.line - 1, 0, s.line - 1, 200),
        `Doc is stale: ${s.code_path} changed since this doc was last synced (node ${s.ref_id}). Update the doc, then run "Context Oracle: Mark Docs Synced".`,
        vscode.DiagnosticSeverity.Warning);
      d.source = 'Context Oracle';
      d.code = 'stale-doc';
      const code = toUri(s.code_path);
      if (code) d.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(code, new vscode.Position(0, 0)), `${s.code_path} changed`)];
      add(s.doc_path, d);
    }
    for (const v of result.violations) {
      if (!v.file) continue;
      const line = Math.max(0, (v.line ?? 1) - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, 200), v.message,
        v.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      d.source = 'Context Oracle';
      d.code = v.rule;
      add(v.file, d);
    }
    this.collection.clear();
    for (const [path, list] of byFile) {
      const uri = toUri(path);
      if (uri) this.collection.set(uri, list);
    }
    this.changed.fire(result);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.collection.dispose();
    this.changed.dispose();
  }
}
