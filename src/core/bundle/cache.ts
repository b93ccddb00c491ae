/**
 * Two cache tiers for bundles, both keyed (ref_ids, depth, max_nodes, max_chunks). L1 is this engine's memory;
 * L2 is the index's `bundle_cache` table, so a bundle built by one host (language server, MCP server) is found by
 * the next process that opens the index once it has been persisted (its rows ride along with this process's next
 * commit, journal record or whole image; entries stay valid through changes that do not concern them, see
 * code-deps.ts). An entry is valid while its `base` (graph/rules files, sync baselines, git HEAD), the mtime/size of
 * every doc it read and its code dependencies hold; the caller checks them. A full reindex starts a new, empty table.
 */
import { createHash } from 'node:crypto';
import type { IndexDatabase } from '../store/database';
import type { CodeDeps } from './code-deps';
import type { ContextBundle } from './types';

export interface CacheEntry {
  base: string;
  /** [doc path, `path:mtime:size`] for every doc read. */
  docs: Array<[string, string]>;
  bundle: ContextBundle;
  tokens: number;
  etag: string;
  code?: CodeDeps;
}

const L1_LIMIT = 512;

export function etagOf(bundle: ContextBundle): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(bundle)).digest('hex').slice(0, 16)}`;
}

export function cacheKey(refIds: readonly string[], depth: number, maxNodes: number, maxChunks: number): string {
  return JSON.stringify([refIds, depth, maxNodes, maxChunks]);
}

export class BundleCache {
  private readonly l1 = new Map<string, CacheEntry>();

  /** A valid entry and the tier it came from; stale entries are dropped on the way. */
  async get(key: string, valid: (entry: CacheEntry) => Promise<boolean>, db: IndexDatabase | undefined): Promise<{ entry: CacheEntry; tier: 'l1' | 'l2' } | undefined> {
    const mem = this.l1.get(key);
    if (mem) {
      if (await valid(mem)) {
        // Refresh recency: Map iteration order is insertion order, so re-inserting makes this the newest.
        this.l1.delete(key);
        this.l1.set(key, mem);
        return { entry: mem, tier: 'l1' };
      }
      this.l1.delete(key);
    }
    if (!db) return undefined;
    const row = db.get('SELECT stamp, etag, bundle FROM bundle_cache WHERE key = ?', [key]);
    if (!row) return undefined;
    try {
      const stamp = JSON.parse(String(row.stamp)) as Pick<CacheEntry, 'base' | 'docs' | 'code'>;
      const stored = JSON.parse(String(row.bundle)) as { bundle: ContextBundle; tokens: number };
      const entry: CacheEntry = { ...stamp, bundle: stored.bundle, tokens: stored.tokens, etag: String(row.etag) };
      if (await valid(entry)) {
        this.remember(key, entry);
        return { entry, tier: 'l2' };
      }
    } catch {
      // An unreadable row is a miss; it is replaced when the bundle is built again.
    }
    db.runKept('DELETE FROM bundle_cache WHERE key = ?', [key]);
    return undefined;
  }

  put(key: string, focus: string, entry: CacheEntry, db: IndexDatabase | undefined, now: number): void {
    this.remember(key, entry);
    db?.runKept('INSERT OR REPLACE INTO bundle_cache(key, focus, stamp, etag, bundle, created_at) VALUES (?,?,?,?,?,?)', [
      key, focus, JSON.stringify({ base: entry.base, docs: entry.docs, ...(entry.code ? { code: entry.code } : {}) }), entry.etag, JSON.stringify({ bundle: entry.bundle, tokens: entry.tokens }), now,
    ]);
  }

  clear(db?: IndexDatabase): void {
    this.l1.clear();
    db?.runKept('DELETE FROM bundle_cache');
  }

  get size(): number {
    return this.l1.size;
  }

  private remember(key: string, entry: CacheEntry): void {
    this.l1.delete(key);
    this.l1.set(key, entry);
    if (this.l1.size > L1_LIMIT) this.l1.delete(this.l1.keys().next().value!);
  }
}

/** True when every doc the entry read still has the mtime and size it had. */
export async function docsUnchanged(entry: CacheEntry, stampOf: (path: string) => Promise<string>): Promise<boolean> {
  for (const [path, stamp] of entry.docs) if ((await stampOf(path)) !== stamp) return false;
  return true;
}
