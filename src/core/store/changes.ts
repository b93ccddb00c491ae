/**
 * Every write an index run makes, as plain data. The indexer applies its writes through applyChange and, for
 * commits that go to the journal, keeps the list; opening the index replays the journal through the same function,
 * so a replayed commit is the same code path as the original one.
 */
import type { SqlValue } from 'sql.js';
import type { ParseResult } from '../parse/types';
import type { IndexDatabase } from './database';
import { copyFile, removeFile, writeFile, type FileFacts, type FileRows } from './file-writes';

export type IndexChange =
  | { op: 'write'; facts: FileFacts; result: ParseResult; now: number }
  /** A file with the same bytes as one already indexed (its rows at `from`): indexed as a copy of it. */
  | { op: 'copy'; facts: FileFacts; from: FileRows; now: number; bodies?: Uint8Array[] }
  | { op: 'remove'; path: string }
  /** mtime moved, content hash did not. */
  | { op: 'touch'; path: string; mtimeMs: number; size: number }
  | { op: 'skips'; clear: boolean; rows: Array<[path: string, reason: string, detail: string | null]> }
  | { op: 'meta'; values: Record<string, string> }
  /** A write made outside the run (IndexDatabase.runKept: the bundle cache), carried by the run's record. */
  | { op: 'sql'; sql: string; params: SqlValue[] };

/** Applies one change; call inside a transaction (meta and skips may stand alone). */
export function applyChange(db: IndexDatabase, change: IndexChange): FileRows | undefined {
  switch (change.op) {
    case 'write':
      return writeFile(db, change.facts, change.result, change.now);
    case 'copy':
      return copyFile(db, change.facts, change.from, change.now, change.bodies);
    case 'remove':
      removeFile(db, change.path);
      return;
    case 'touch':
      db.runPrepared('UPDATE files SET mtime = ?, size = ? WHERE path = ?', [change.mtimeMs, change.size, change.path]);
      return;
    case 'skips':
      if (change.clear) db.run('DELETE FROM skips');
      db.runMany('INSERT OR REPLACE INTO skips(path, reason, detail) VALUES (?,?,?)', change.rows);
      return;
    case 'meta':
      db.setMeta(change.values);
      return;
    case 'sql':
      db.run(change.sql, change.params);
      return;
  }
}

/**
 * Applies changes and, while `recording`, keeps them for the journal. Recording stops by itself past `maxWrites`
 * files: such a commit is cheaper to persist as a new image than as a record the next open has to replay.
 */
export class ChangeRecorder {
  private readonly kept: IndexChange[] = [];
  private writes = 0;
  private overflowed = false;

  constructor(private readonly db: IndexDatabase, private recording: boolean, private readonly maxWrites = 400) {}

  /** Applies `change`; a written or copied file's rows are returned. */
  apply(change: IndexChange): FileRows | undefined {
    const rows = applyChange(this.db, change);
    if (!this.recording) return rows;
    if ((change.op === 'write' || change.op === 'copy') && ++this.writes > this.maxWrites) {
      this.recording = false;
      this.overflowed = true;
      this.kept.length = 0;
      return rows;
    }
    this.kept.push(change);
    return rows;
  }

  /** Keeps a change that was already applied elsewhere. */
  record(change: IndexChange): void {
    if (this.recording) this.kept.push(change);
  }

  /** The recorded changes, or undefined when recording was off or overflowed (persist a whole image then). */
  changes(): IndexChange[] | undefined {
    return this.recording && !this.overflowed ? this.kept : undefined;
  }
}
