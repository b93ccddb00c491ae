/**
 * A quick pick of ref_ids: declared graph nodes and the repo map's files and symbols at once (kept by a catalog that
 * is refreshed whenever the index changes, so opening never waits for the server), filtered by the editor as the
 * user types, with the server's matches for what is typed added (debounced). Whatever is typed can be taken as is.
 */
import * as vscode from 'vscode';
import type { RefIdSuggestion } from '../protocol/editor';
import type { OracleClient } from './oracle-client';

interface Item extends vscode.QuickPickItem {
  refId: string;
}

const toItem = (s: RefIdSuggestion): Item => ({ label: s.ref_id, description: s.kind, ...(s.summary ? { detail: s.summary } : {}), refId: s.ref_id });

/** The suggestions for an empty query, fetched ahead of time. */
export class RefIdCatalog {
  private items: Item[] | undefined;
  private generation = 0;

  constructor(private readonly client: OracleClient) {}

  /** The index changed: fetch the list again (the old one is shown until the new one arrives). */
  refresh(): void {
    const mine = ++this.generation;
    if (!this.client.isRunning()) return;
    this.client.request('contextOracle/refIds', { query: '', limit: 500 }).then((list) => {
      if (mine === this.generation) this.items = list.map(toItem);
    }, () => undefined);
  }

  get current(): Item[] | undefined {
    return this.items;
  }
}

export function pickRefId(client: OracleClient, catalog: RefIdCatalog, title: string): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = title;
  qp.placeholder = 'A node, a file, or a symbol (path::Name); type to filter';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  let base = catalog.current ?? [];
  let found: Item[] = [];
  const show = (): void => {
    const typed = qp.value.trim();
    const ids = new Set(found.map((i) => i.refId));
    const items = [...found, ...base.filter((i) => !ids.has(i.refId))];
    // Worded so that the editor's sort (prefix matches first) keeps the real matches above it.
    if (typed && !items.some((i) => i.refId === typed)) items.push({ label: `Use "${typed}"`, description: 'as typed', refId: typed, alwaysShow: true });
    qp.items = items;
  };
  const load = (query: string): void => {
    const mine = ++generation;
    qp.busy = true;
    client.request('contextOracle/refIds', { query, limit: query.trim() ? 50 : 500 }).then((list) => {
      if (mine !== generation) return;
      if (query.trim()) found = list.map(toItem);
      else base = list.map(toItem);
      show();
    }, () => undefined).finally(() => { if (mine === generation) qp.busy = false; });
  };
  if (base.length) show();
  else load('');
  return new Promise((resolve) => {
    qp.onDidChangeValue((v) => {
      if (timer) clearTimeout(timer);
      // The editor filters the listed items at once; the server adds definitions the list does not hold.
      found = [];
      show();
      timer = setTimeout(() => { if (v.trim().length >= 2) load(v); }, 150);
    });
    qp.onDidAccept(() => {
      const refId = qp.selectedItems[0]?.refId ?? (qp.value.trim() || undefined);
      resolve(refId);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (timer) clearTimeout(timer);
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** The name and its candidates when the engine said a name is ambiguous (`detail.candidates`), else undefined. */
export function ambiguity(e: unknown): { name: string; candidates: string[] } | undefined {
  const detail = (e as { data?: { detail?: { ref_id?: unknown; candidates?: unknown } } } | undefined)?.data?.detail;
  const list = Array.isArray(detail?.candidates) ? detail.candidates.filter((c): c is string => typeof c === 'string') : [];
  return typeof detail?.ref_id === 'string' && list.length > 1 ? { name: detail.ref_id, candidates: list } : undefined;
}

/**
 * Runs `body` on the ref_ids; when one of them names several symbols, asks which one (a quick pick of the
 * candidates, path beside each name) and runs again with the choice. Undefined when the user picks none.
 */
export async function withUnambiguousRefIds<T>(refIds: string[], log: vscode.LogOutputChannel, body: (ids: string[]) => Promise<T>): Promise<T | undefined> {
  let ids = refIds;
  for (;;) {
    try {
      return await body(ids);
    } catch (e) {
      const a = ambiguity(e);
      if (!a || !ids.includes(a.name)) throw e;
      log.info(`"${a.name}" names ${a.candidates.length} symbols: asking which one`);
      const picked = await vscode.window.showQuickPick(a.candidates.map((c): Item => {
        const sep = c.indexOf('::');
        return { label: sep > 0 ? c.slice(sep + 2) : c, description: sep > 0 ? c.slice(0, sep) : '', refId: c };
      }), { title: `"${a.name}" names ${a.candidates.length} symbols: which one?`, matchOnDescription: true });
      if (!picked) return undefined;
      ids = ids.map((id) => (id === a.name ? picked.refId : id));
    }
  }
}
