/**
 * The use table's pairs (use-table.ts: each file's names used) saved beside the index, so that a host opening an
 * unchanged index reads them in one piece instead of passing over every reference (12M rows at 124k files, ~3 CPU-s
 * of its warm-up). Like the repo map's snapshot (repomap/map-snapshot.ts) it records the index version it was made
 * from (store/index-version.ts): a host takes it as it is for that version, and for a later version of the same index
 * re-reads the pairs of the files the serving facts found changed since (use-table.ts fromSaved). Layout:
 * core/column-file.ts.
 */
import { decodeColumns, encodeColumns } from '../column-file';
import { sameIndex } from '../store/index-version';
import type { UsePairs } from './use-table';

/** The sidecar's name (IndexStorage.readSidecar). */
export const USES_SIDECAR = 'uses';

const MAGIC = 'context-oracle use table\n';
/** Bump when the layout or the meaning of a column changes. */
const FORMAT = 2;

interface Header {
  format: number;
  version: string;
}

/** The bytes, in parts to be written one after the other (the columns are the table's own, not copied). */
export function encodeUses(version: string, { usedAt, used }: UsePairs): Uint8Array[] {
  const header: Header = { format: FORMAT, version };
  return encodeColumns(MAGIC, header, [['usedAt', usedAt], ['used', used]]);
}

/** Saved pairs and the index version they were saved for. */
export interface UsesOfVersion {
  version: string;
  pairs: UsePairs;
}

/**
 * The pairs saved for index version `version` or another version of the same index (sameIndex); undefined when the
 * bytes are of another index or format. Throws on bytes that are not a whole saved table (the caller logs that and
 * reads the index instead).
 */
export function decodeUses(bytes: Uint8Array, version: string): UsesOfVersion | undefined {
  const file = decodeColumns<Header>(bytes, MAGIC, 'saved use table', (h) => h.format === FORMAT && sameIndex(h.version, version));
  if (!file) return undefined;
  const usedAt = file.columns.get('usedAt');
  const used = file.columns.get('used');
  if (!(usedAt instanceof Int32Array) || !(used instanceof Int32Array)) throw new Error('saved use table without its two int32 columns');
  return { version: file.header.version, pairs: { usedAt, used } };
}
