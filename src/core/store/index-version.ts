import type { IndexDatabase } from './database';

/**
 * Identifies what the index holds: meta created_at (the full run that made it) and updated_at (moved by every index
 * run or commit that changes anything), never a request. Caches and the sidecars saved beside the index (the repo
 * map's snapshot, the use table) are keyed on it.
 */
export function indexVersion(db: IndexDatabase): string {
  const meta = db.meta();
  return `${meta.created_at ?? '0'}:${meta.updated_at ?? '0'}`;
}
