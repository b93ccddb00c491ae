/**
 * Hovers and CodeLens on annotated symbols (`// oracle:domain=greeting` above a definition): the node's ref_id and
 * summary, how many nodes depend on it, and a warning when a doc of the node is stale because this file changed.
 * Lens actions open the node's context bundle and the symbol's why-tree in the Oracle panel. Answers are cached per
 * document version and dropped whenever the index, the queue or the problems change.
 */
import * as vscode from 'vscode';
import type { AnnotatedSymbol, FileInsights } from '../protocol/editor';
import { errorMessage } from './errors';
import { relativePath, toUri } from './navigation-bridge';
import type { OracleClient } from './oracle-client';

const MARKER = /\b(?:oracle|beadloom):[A-Za-z_]/;

export class AnnotationInsights implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.Disposable {
  private readonly cache = new Map<string, { version: number; insights: Promise<FileInsights | undefined> }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly client: OracleClient, private readonly log: vscode.LogOutputChannel) {}

  /** The index or the problems changed: ask again next time. */
  invalidate(): void {
    this.cache.clear();
    this.changed.fire();
  }

  private insights(doc: vscode.TextDocument): Promise<FileInsights | undefined> {
    const path = relativePath(doc.uri);
    const text = doc.getText();
    if (!path || !MARKER.test(text) || !this.client.isRunning()) return Promise.resolve(undefined);
    const key = doc.uri.toString();
    const hit = this.cache.get(key);
    if (hit && hit.version === doc.version) return hit.insights;
    const insights = this.client.request('contextOracle/fileInsights', { path, text }).catch((e: unknown) => {
      this.log.debug(`insights for ${path}: ${errorMessage(e)}`);
      this.cache.delete(key);
      return undefined;
    });
    this.cache.set(key, { version: doc.version, insights });
    return insights;
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const found = await this.insights(doc);
    const lenses: vscode.CodeLens[] = [];
    for (const s of found?.symbols ?? []) {
      const range = new vscode.Range(s.line - 1, 0, s.line - 1, 0);
      for (const n of s.nodes) {
        lenses.push(new vscode.CodeLens(range, {
          title: `$(type-hierarchy-sub) ${n.ref_id} · ${n.dependents} ${n.dependents === 1 ? 'dependent' : 'dependents'}`,
          tooltip: `${n.kind} ${n.ref_id}: ${n.summary} — open its context bundle`,
          command: 'contextOracle.contextBundle', arguments: [n.ref_id],
        }));
        if (n.staleDocs.length) {
          lenses.push(new vscode.CodeLens(range, {
            title: `$(warning) stale doc: ${n.staleDocs.join(', ')}`, tooltip: 'This file changed after the doc was last synced',
            command: 'vscode.open', arguments: [toUri(n.staleDocs[0]!)],
          }));
        }
      }
      lenses.push(new vscode.CodeLens(range, { title: '$(references) why', tooltip: `What ${s.ref_id} depends on and what depends on it`, command: 'contextOracle.why', arguments: [s.ref_id] }));
    }
    return lenses;
  }

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    const found = await this.insights(doc);
    const line = pos.line + 1;
    const s = found?.symbols.find((x) => line === x.annotationLine || line === x.line);
    return s ? new vscode.Hover(hoverText(s), new vscode.Range(pos.line, 0, pos.line, doc.lineAt(pos.line).text.length)) : undefined;
  }

  dispose(): void {
    this.changed.dispose();
    this.cache.clear();
  }
}

/** Workspace text goes in with appendText (escaped); only our own structure is Markdown; only our commands run. */
export function hoverText(s: AnnotatedSymbol): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', true);
  md.isTrusted = { enabledCommands: ['contextOracle.contextBundle', 'contextOracle.why'] };
  md.appendMarkdown('**Context Oracle** · ');
  md.appendText(`${s.kind} ${s.ref_id}`);
  for (const n of s.nodes) {
    md.appendMarkdown('\n\n$(type-hierarchy-sub) ');
    md.appendText(`${n.ref_id} (${n.kind}): ${n.summary}`);
    md.appendMarkdown(`\n\n${n.dependents} ${n.dependents === 1 ? 'node depends' : 'nodes depend'} on it.`);
    if (n.staleDocs.length) {
      md.appendMarkdown('\n\n$(warning) Stale doc: ');
      md.appendText(n.staleDocs.join(', '));
    }
    md.appendMarkdown(`\n\n[Context bundle](command:contextOracle.contextBundle?${encodeURIComponent(JSON.stringify([n.ref_id]))}) · `);
    md.appendMarkdown(`[Why](command:contextOracle.why?${encodeURIComponent(JSON.stringify([s.ref_id]))})`);
  }
  if (!s.nodes.length) {
    md.appendMarkdown('\n\nAnnotation: ');
    md.appendText(Object.entries(s.pairs).map(([k, v]) => `${k}=${v}`).join(' '));
    md.appendMarkdown(' (no declared node of that name)');
  }
  return md;
}
