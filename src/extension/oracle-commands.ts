/**
 * The commands that use the engine through the language server and show their results in the Oracle panel: Ask,
 * Context Bundle for…, Why, Repo Map, Search, Graph, Lint, Sync Now, Copy Context for Agent, Mark Docs Synced.
 * Every command takes optional arguments (so tests, CodeLens and other commands can run it without prompts) and
 * returns its result.
 */
import * as vscode from 'vscode';
import type { AskResult, BundleResult, FreshnessStamp, LintReport, RepoMap, SearchHit, WhyResult } from '../core';
import { engineErrorCode, errorMessage, isCancellation } from './errors';
import { relativePath } from './navigation-bridge';
import type { OracleClient } from './oracle-client';
import type { OraclePanel } from './panel/oracle-panel';
import { pickRefId, withUnambiguousRefIds, type RefIdCatalog } from './ref-id-pick';

export const ORACLE_COMMANDS = {
  ask: 'contextOracle.ask',
  contextBundle: 'contextOracle.contextBundle',
  why: 'contextOracle.why',
  repoMap: 'contextOracle.showRepoMap',
  search: 'contextOracle.search',
  graph: 'contextOracle.showGraph',
  lint: 'contextOracle.lint',
  syncNow: 'contextOracle.syncNow',
  copyContext: 'contextOracle.copyContext',
  markDocsSynced: 'contextOracle.markDocsSynced',
  newConversation: 'contextOracle.newConversation',
  // For other extensions and tests (hidden from the palette): the engine's answers as data.
  findDefinitions: 'contextOracle.findDefinitions',
  findReferences: 'contextOracle.findReferences',
  findImplementations: 'contextOracle.findImplementations',
} as const;

export interface OracleCommandDeps {
  client: OracleClient;
  panel: OraclePanel;
  log: vscode.LogOutputChannel;
  /** Problems (stale docs, violations) changed or may have: refresh them. */
  refreshProblems(): void;
  /** Send the file changes the watcher holds back for batching. */
  flushChanges(): void;
  /** Nodes, files and symbols listed the moment a ref_id quick pick opens. */
  catalog: RefIdCatalog;
}

export interface CopyContextArgs {
  question?: string;
  refIds?: string[];
  maxTokens?: number;
}

export interface CopiedContext {
  kind: 'bundle' | 'context';
  text: string;
  tokens: number;
}

/** Runs a command body; engine errors become one readable message (with suggestions for unknown names). */
async function guarded<T>(deps: OracleCommandDeps, what: string, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (e) {
    if (isCancellation(e)) return undefined;
    const suggestions = ((e as { data?: { detail?: { suggestions?: unknown } } }).data?.detail?.suggestions);
    const hint = Array.isArray(suggestions) && suggestions.length && !/did you mean/i.test(errorMessage(e)) ? ` Did you mean ${suggestions.slice(0, 5).join(', ')}?` : '';
    deps.log.warn(`${what} failed (${engineErrorCode(e) ?? 'error'}): ${errorMessage(e)}`);
    void vscode.window.showErrorMessage(`Context Oracle: ${what} failed: ${errorMessage(e)}${hint}`);
    deps.panel.post({ type: 'error', title: `${what} failed`, message: `${errorMessage(e)}${hint}` });
    return undefined;
  }
}

function selectionText(): string | undefined {
  const ed = vscode.window.activeTextEditor;
  const text = ed && !ed.selection.isEmpty ? ed.document.getText(ed.selection).trim() : '';
  return text && text.length < 400 ? text : undefined;
}

/** `path::Outer.inner` from the editor's document symbols around the cursor (what the language server calls it). */
async function editorSymbolAt(ed: vscode.TextEditor, path: string): Promise<string | undefined> {
  const symbols = await vscode.commands.executeCommand<Array<vscode.DocumentSymbol | vscode.SymbolInformation>>('vscode.executeDocumentSymbolProvider', ed.document.uri)
    .then((s) => s ?? [], () => []);
  const chain: string[] = [];
  let level = symbols.filter((s) => 'children' in s) as vscode.DocumentSymbol[];
  const pos = ed.selection.active;
  for (;;) {
    const inner = level.find((s) => s.range.contains(pos));
    if (!inner) break;
    chain.push(inner.name);
    level = inner.children;
  }
  return chain.length ? `${path}::${chain.join('.')}` : undefined;
}

function maxTokensSetting(): number {
  return vscode.workspace.getConfiguration('contextOracle').get<number>('copyContext.maxTokens', 8000);
}

export function registerOracleCommands(deps: OracleCommandDeps): vscode.Disposable[] {
  const { client, panel } = deps;
  const C = ORACLE_COMMANDS;

  const ask = async (question?: string, options?: { explain?: boolean }): Promise<AskResult | undefined> => {
    await panel.reveal();
    const q = typeof question === 'string' ? question.trim() : '';
    if (!q) {
      // Interactive: the question box of the panel, filled from the selection, with the focus in it.
      const selected = selectionText();
      panel.post({ type: 'prefill', question: selected ? `What does ${selected} do?` : '' });
      return undefined;
    }
    return panel.ask(q, options?.explain === true);
  };

  const bundle = (refIds?: string | string[]): Promise<BundleResult | undefined> => guarded(deps, 'Context bundle', async () => {
    const ids = typeof refIds === 'string' ? [refIds] : Array.isArray(refIds) ? refIds.filter((r) => typeof r === 'string') : [];
    if (!ids.length) {
      const picked = await pickRefId(client, deps.catalog, 'Context Bundle for…');
      if (!picked) return undefined;
      ids.push(picked);
    }
    const done = await withUnambiguousRefIds(ids, deps.log, async (chosen) => ({ chosen, result: await client.request('contextOracle/bundle', { refIds: chosen }) }));
    if (!done) return undefined;
    await panel.reveal();
    panel.post({ type: 'bundle', refIds: done.chosen, result: done.result });
    return done.result;
  });

  const why = (refId?: string): Promise<WhyResult | undefined> => guarded(deps, 'Why', async () => {
    let result: WhyResult | undefined;
    if (typeof refId === 'string' && refId) result = await withUnambiguousRefIds([refId], deps.log, ([id]) => client.request('contextOracle/why', { refId: id! }));
    else {
      const ed = vscode.window.activeTextEditor;
      const path = ed ? relativePath(ed.document.uri) : undefined;
      // The editor's symbol at the cursor first, then the index's, then the file; with no editor, a quick pick.
      const candidates = path && ed ? [await editorSymbolAt(ed, path), (await client.request('contextOracle/symbolAt', { path, line: ed.selection.active.line + 1 }))?.ref_id, path] : [];
      for (const id of candidates) {
        if (!id || result) continue;
        result = await client.request('contextOracle/why', { refId: id }).catch((e: unknown) => { if (engineErrorCode(e) === 'not_found') return undefined; throw e; });
      }
      if (!result && !candidates.length) {
        const picked = await pickRefId(client, deps.catalog, 'Why (impact) of…');
        if (picked) result = await withUnambiguousRefIds([picked], deps.log, ([id]) => client.request('contextOracle/why', { refId: id! }));
      }
    }
    if (!result) return undefined;
    await panel.reveal();
    panel.post({ type: 'why', result });
    return result;
  });

  const repoMap = (args?: { scope?: string; maxTokens?: number }): Promise<RepoMap | undefined> => guarded(deps, 'Repo map', async () => {
    const map = await client.request('contextOracle/repoMap', {
      ...(typeof args?.scope === 'string' ? { scope: args.scope } : {}), ...(typeof args?.maxTokens === 'number' ? { maxTokens: args.maxTokens } : {}),
    });
    await panel.reveal();
    panel.post({ type: 'map', map });
    return map;
  });

  const search = (query?: string): Promise<SearchHit[] | undefined> => guarded(deps, 'Search', async () => {
    const q = typeof query === 'string' && query.trim() ? query.trim()
      : (await vscode.window.showInputBox({ title: 'Context Oracle: Search', prompt: 'Full-text search over the indexed code', value: selectionText() ?? '' }))?.trim();
    if (!q) return undefined;
    const hits = await client.request('contextOracle/search', { query: q, limit: 30 });
    await panel.reveal();
    panel.post({ type: 'search', query: q, hits });
    return hits;
  });

  const graph = (refId?: string): Promise<unknown> => guarded(deps, 'Graph', async () => {
    const ids = typeof refId === 'string' ? [refId] : [];
    const view = await client.request('contextOracle/graphView', ids.length ? { refIds: ids, depth: 2 } : {});
    await panel.reveal();
    panel.post({ type: 'graph', refIds: ids, view });
    return view;
  });

  const lint = (): Promise<LintReport | undefined> => guarded(deps, 'Lint', async () => {
    const report = await client.request('contextOracle/lint', {});
    await panel.reveal();
    panel.post({ type: 'lint', report });
    deps.refreshProblems();
    return report;
  });

  const syncNow = (): Promise<FreshnessStamp | undefined> => guarded(deps, 'Sync', async () => vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Context Oracle: committing queued changes' },
    async () => {
      deps.flushChanges(); // a notification, so the server has it before the request that follows
      const stamp = await client.request('contextOracle/syncNow', {});
      deps.refreshProblems();
      return stamp;
    },
  ));

  const copyContext = (args?: CopyContextArgs): Promise<CopiedContext | undefined> => guarded(deps, 'Copy context', async () => {
    const maxTokens = typeof args?.maxTokens === 'number' && args.maxTokens > 0 ? args.maxTokens : maxTokensSetting();
    let refIds = Array.isArray(args?.refIds) ? args!.refIds.filter((r) => typeof r === 'string') : [];
    let question = typeof args?.question === 'string' ? args.question.trim() : '';
    if (!refIds.length && !question) {
      const pick = await vscode.window.showQuickPick([
        { label: '$(comment-discussion) For a question…', id: 'question' as const, detail: 'Smart context: the files and code a question needs' },
        { label: '$(package) For a node or symbol…', id: 'bundle' as const, detail: 'A context bundle for a ref_id' },
      ], { title: `Copy Context for Agent (≤ ${maxTokens} tokens)` });
      if (!pick) return undefined;
      if (pick.id === 'bundle') {
        const id = await pickRefId(client, deps.catalog, 'Copy context bundle for…');
        if (!id) return undefined;
        refIds = [id];
      } else {
        question = (await vscode.window.showInputBox({ title: 'Copy Context for Agent', prompt: 'The question the agent works on', value: selectionText() ?? '' }))?.trim() ?? '';
        if (!question) return undefined;
      }
    }
    let copied: CopiedContext;
    if (refIds.length) {
      const r = await client.request('contextOracle/bundle', { refIds, maxTokens });
      copied = { kind: 'bundle', text: JSON.stringify(r.bundle, null, 2), tokens: r.tokens };
    } else {
      const r = await client.request('contextOracle/context', { question, maxTokens, format: 'markdown' });
      copied = { kind: 'context', text: r.text, tokens: r.tokenCount };
    }
    await vscode.env.clipboard.writeText(copied.text);
    void vscode.window.showInformationMessage(`Context Oracle: copied ${copied.kind === 'bundle' ? 'the context bundle' : 'the context'} (${copied.tokens} tokens) to the clipboard.`);
    return copied;
  });

  const markDocsSynced = (target?: string): Promise<unknown> => guarded(deps, 'Mark docs synced', async () => {
    const r = await client.request('contextOracle/docSync', typeof target === 'string' && target ? { mark: [target] } : {});
    deps.refreshProblems();
    return r;
  });

  return [
    vscode.commands.registerCommand(C.ask, ask),
    vscode.commands.registerCommand(C.contextBundle, bundle),
    vscode.commands.registerCommand(C.why, why),
    vscode.commands.registerCommand(C.repoMap, repoMap),
    vscode.commands.registerCommand(C.search, search),
    vscode.commands.registerCommand(C.graph, graph),
    vscode.commands.registerCommand(C.lint, lint),
    vscode.commands.registerCommand(C.syncNow, syncNow),
    vscode.commands.registerCommand(C.copyContext, copyContext),
    vscode.commands.registerCommand(C.markDocsSynced, markDocsSynced),
    vscode.commands.registerCommand(C.newConversation, () => panel.newConversation()),
    vscode.commands.registerCommand(C.findDefinitions, (symbol: string, limit?: number) =>
      client.request('contextOracle/definitions', { symbol, ...(typeof limit === 'number' ? { limit } : {}) })),
    vscode.commands.registerCommand(C.findReferences, (symbol: string, limit?: number) =>
      client.request('contextOracle/references', { symbol, ...(typeof limit === 'number' ? { limit } : {}) })),
    vscode.commands.registerCommand(C.findImplementations, (symbol: string, limit?: number) =>
      client.request('contextOracle/implementations', { symbol, ...(typeof limit === 'number' ? { limit } : {}) })),
  ];
}
