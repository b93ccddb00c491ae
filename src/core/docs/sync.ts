/**
 * Doc↔code sync: every doc of a node is paired with every code file of the node (CodeView.ownFilesOfNode). A pair's baseline is the code
 * hash (and doc hash) when the doc was last brought up to date; the pair is stale when the code changed since and
 * the doc did not. Baselines are kept in `.context-oracle/sync-state.json` (the StateStore port), not in the index,
 * so no reindex — full, incremental or after a schema change — forgets them.
 */
import { contentHash } from '../index/content';
import type { Knowledge } from '../graph/knowledge';
import { absolute } from '../graph/workspace-files';
import type { FileSystem, StateStore } from '../ports';

export const SYNC_STATE_FILE = 'sync-state.json';

export interface Baseline {
  ref_id: string;
  code_hash: string;
  doc_hash: string;
  synced_at: string;
}

export interface SyncState {
  version: 1;
  /** Keyed by `doc_path\ncode_path`. */
  pairs: Record<string, Baseline>;
}

export type SyncStatus = 'ok' | 'stale' | 'untracked' | 'doc_missing';

export interface SyncPair {
  ref_id: string;
  doc_path: string;
  code_path: string;
  status: SyncStatus;
  /** code_changed (stale), doc_updated (doc edited since the baseline), new (no baseline yet), unchanged. */
  reason: 'code_changed' | 'doc_updated' | 'new' | 'unchanged' | 'doc_missing';
  synced_at?: string;
}

export interface SyncReport {
  pairs: SyncPair[];
  counts: Record<SyncStatus, number>;
  /** Nodes with docs but no code, or code but no docs (nothing to pair). */
  unpaired: { docs_without_code: string[]; code_without_docs: string[] };
}

const pairKey = (doc: string, code: string) => `${doc}\n${code}`;

export function emptySyncState(): SyncState {
  return { version: 1, pairs: {} };
}

export async function readSyncState(store: StateStore | undefined, memory: SyncState): Promise<SyncState> {
  if (!store) return memory;
  const text = await store.read(SYNC_STATE_FILE);
  if (!text) return emptySyncState();
  try {
    const parsed = JSON.parse(text) as SyncState;
    return parsed && typeof parsed.pairs === 'object' && parsed.pairs ? parsed : emptySyncState();
  } catch {
    // A corrupt state file is treated as absent (pairs show as untracked) rather than failing every bundle.
    return emptySyncState();
  }
}

export interface HashSource {
  /** Current content hash of a code file, or undefined when it is gone. */
  code(path: string): Promise<string | undefined>;
  /** Current content hash of a doc, or undefined when it is gone. */
  doc(path: string): Promise<string | undefined>;
}

/** Hashes read from disk (exact, for `sync`); the same sha1 the index stores, so the two agree. */
export function diskHashes(fs: FileSystem, root: string): HashSource {
  const read = async (p: string) => {
    try {
      return contentHash(await fs.readFile(absolute(root, p)));
    } catch {
      return undefined;
    }
  };
  return { code: read, doc: read };
}

/** Doc↔code pairs of the given nodes (all nodes when omitted) with their status against the baselines. */
export async function computeSync(k: Knowledge, state: SyncState, hashes: HashSource, refIds?: readonly string[]): Promise<{ report: SyncReport; current: Map<string, { code?: string; doc?: string }> }> {
  const pairs: SyncPair[] = [];
  const current = new Map<string, { code?: string; doc?: string }>();
  const unpaired = { docs_without_code: [] as string[], code_without_docs: [] as string[] };
  const ids = refIds ?? [...k.graph.nodes.keys()];
  for (const id of ids) {
    const node = k.graph.nodes.get(id);
    if (!node) continue;
    const docs = node.docs.length ? await k.docs.expand(node.docs) : [];
    const code = k.code ? k.code.ownFilesOfNode(k.graph, id) : [];
    if (docs.length && !code.length) unpaired.docs_without_code.push(id);
    if (!docs.length && code.length) unpaired.code_without_docs.push(id);
    if (!docs.length || !code.length) continue;
    for (const doc of docs) {
      const docHash = await hashes.doc(doc);
      for (const file of code) {
        const codeHash = await hashes.code(file);
        const key = pairKey(doc, file);
        current.set(key, { ...(codeHash ? { code: codeHash } : {}), ...(docHash ? { doc: docHash } : {}) });
        const base = state.pairs[key];
        let status: SyncStatus = 'ok';
        let reason: SyncPair['reason'] = 'unchanged';
        if (!docHash) { status = 'doc_missing'; reason = 'doc_missing'; }
        else if (!base) { status = 'untracked'; reason = 'new'; }
        else if (docHash !== base.doc_hash) reason = 'doc_updated';
        else if (codeHash !== base.code_hash) { status = 'stale'; reason = 'code_changed'; }
        pairs.push({ ref_id: id, doc_path: doc, code_path: file, status, reason, ...(base ? { synced_at: base.synced_at } : {}) });
      }
    }
  }
  const counts: Record<SyncStatus, number> = { ok: 0, stale: 0, untracked: 0, doc_missing: 0 };
  for (const p of pairs) counts[p.status]++;
  return { report: { pairs, counts, unpaired }, current };
}

/**
 * New baselines after a `sync` run: untracked pairs start being tracked, pairs whose doc was edited are taken as
 * brought up to date, and pairs matching `mark` (ref_id, doc path or code path) are marked synced whatever they were.
 * Stale pairs not marked keep their old baseline, so they stay stale until someone updates the doc or marks them.
 */
export function nextSyncState(state: SyncState, report: SyncReport, current: Map<string, { code?: string; doc?: string }>, mark: readonly string[], now: string): { state: SyncState; marked: number } {
  const pairs = { ...state.pairs };
  let marked = 0;
  for (const p of report.pairs) {
    const key = pairKey(p.doc_path, p.code_path);
    const hashes = current.get(key);
    if (!hashes?.doc || !hashes.code) continue;
    const explicit = mark.some((m) => m === p.ref_id || m === p.doc_path || m === p.code_path);
    if (explicit || p.status === 'untracked' || p.reason === 'doc_updated') {
      pairs[key] = { ref_id: p.ref_id, code_hash: hashes.code, doc_hash: hashes.doc, synced_at: now };
      if (explicit) marked++;
    }
  }
  return { state: { version: 1, pairs }, marked };
}
