/**
 * Which change notices still differ from the index. A watcher also reports writes that leave a file as the index
 * has it: a file saved unchanged, a temp file created and deleted, or a file a full run indexed before its event
 * arrived (VS Code's watcher can lag a second behind). Those never wait in the queue, so "queued" means what it
 * says; the test is the indexer's own pre-filter (size and mtime).
 */
import type { FileSystem } from '../ports';
import { folderRange, joinPath } from '../index/paths';
import type { IndexDatabase } from '../store/database';
import type { ChangeNotice, FreshnessController } from './freshness';

export async function stillDiffering(db: IndexDatabase, root: string, fs: FileSystem, changes: ChangeNotice[]): Promise<ChangeNotice[]> {
  const out: ChangeNotice[] = [];
  for (const change of changes) {
    const st = await fs.stat(joinPath(root, change.path)).catch(() => undefined);
    const row = db.getPrepared('SELECT size, mtime FROM files WHERE path = ?', [change.path]);
    if (st?.isFile && row && Number(row.size) === st.size && Number(row.mtime) === st.mtimeMs) continue;
    // Gone, and the index holds neither it nor anything under it (a folder): nothing to remove.
    if (!st && !row && !db.getPrepared('SELECT 1 AS x FROM files WHERE path > ? AND path < ? LIMIT 1', folderRange(change.path))) continue;
    out.push(change);
  }
  return out;
}

export interface PendingChanges {
  /** Queues the notices that differ from the index, after the notices before them. */
  noteChanges(changes: ChangeNotice[]): Promise<void>;
  /** Commits the queued files `text` mentions, once earlier notices are queued. */
  justInTime(text: string): Promise<void>;
  /** After a run that walked the workspace: what it indexed as it is now leaves the queue. */
  settle(): Promise<void>;
  /** Resolves when every notice given so far is queued (or dropped). */
  settled(): Promise<unknown>;
}

/**
 * The engine's side of the queue. Comparing a notice with the index awaits, so notices go through one chain and
 * whatever reads the queue waits for it: a Sync Now or a question right after a save sees the save queued (an editor
 * sends them in that order).
 */
export function createPendingChanges(
  freshness: FreshnessController, readable: () => Promise<IndexDatabase>, root: string, fs: FileSystem,
): PendingChanges {
  let noting: Promise<unknown> = Promise.resolve();
  async function differing(changes: ChangeNotice[]): Promise<ChangeNotice[]> {
    try {
      return await stillDiffering(await readable(), root, fs, changes);
    } catch {
      return changes; // no usable index yet: everything is a change
    }
  }
  return {
    noteChanges(changes) {
      const next = noting.then(async () => freshness.note(await differing(changes)));
      noting = next.catch(() => undefined);
      return next;
    },
    async justInTime(text) {
      await noting;
      return freshness.justInTime(text);
    },
    async settle() {
      const queued = freshness.queued();
      if (!queued.length) return;
      const still = new Set((await differing(queued.map((c) => ({ path: c.path, kind: c.kind })))).map((c) => c.path));
      freshness.drop(queued.map((c) => c.path).filter((p) => !still.has(p)));
    },
    settled: () => noting,
  };
}
