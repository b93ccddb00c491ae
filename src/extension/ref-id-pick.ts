/**
 * A quick pick of ref_ids: declared graph nodes at once, then files and symbols named like what the user types
 * (asked from the server as they type, debounced). Whatever is typed can be taken as is.
 */
import * as vscode from 'vscode';
import type { RefIdSuggestion } from '../protocol/editor';
import type { OracleClient } from './oracle-client';

interface Item extends vscode.QuickPickItem {
  refId: string;
}

const toItem = (s: RefIdSuggestion): Item => ({ label: s.ref_id, description: s.kind, detail: s.summary, refId: s.ref_id });

export function pickRefId(client: OracleClient, title: string): Promise<string | undefined> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = title;
  qp.placeholder = 'A node, a file, or a symbol (path::Name); type to search';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  const load = (query: string): void => {
    const mine = ++generation;
    qp.busy = true;
    client.request('contextOracle/refIds', { query, limit: 50 }).then((list) => {
      if (mine !== generation) return;
      const typed = query.trim();
      const items = list.map(toItem);
      if (typed && !items.some((i) => i.refId === typed)) items.push({ label: typed, description: 'as typed', refId: typed, alwaysShow: true });
      qp.items = items;
    }, () => undefined).finally(() => { if (mine === generation) qp.busy = false; });
  };
  load('');
  return new Promise((resolve) => {
    qp.onDidChangeValue((v) => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => load(v), 150);
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
