import type { IndexDatabase } from './database';

/**
 * Identifies what the index holds: meta created_at (the full run that made it) and updated_at (moved by every index
 * run or commit that changes anything), never a request. Caches and the sidecars saved beside the index (the repo
 * map's snapshot, the serving facts, the use table) are keyed on it.
 */
export function indexVersion(db: IndexDatabase): string {
  const meta = db.meta();
  return `${meta.created_at ?? '0'}:${meta.updated_at ?? '0'}`;
}

/**
 * Whether two index versions are of the same index (the same full run, created_at): then file and name ids mean the
 * same in both (only a full run renumbers: ref_names rows are only added, and the packed copy and compaction keep
 * every id), and what was derived from one is patched into the other by comparing each file's stamp (file-stamp.ts).
 */
export function sameIndex(a: string, b: string): boolean {
  return a.slice(0, a.indexOf(':')) === b.slice(0, b.indexOf(':'));
}
