/**
 * The use table's pairs (use-table.ts: each file's names used) saved beside the index, so that a host opening an
 * unchanged index reads them in one piece instead of passing over every reference (12M rows at 124k files, ~3 CPU-s
 * of its warm-up). Like the repo map's snapshot (repomap/map-snapshot.ts) it records the index version it was made
 * from (store/index-version.ts) and is used only for that version. Layout: core/column-file.ts.
 */
import { decodeColumns, encodeColumns } from '../column-file';
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

/**
 * The pairs saved for index version `version`; undefined when the bytes are of another version or format. Throws on
 * bytes that are not a whole saved table (the caller logs that and reads the index instead).
 */
export function decodeUses(bytes: Uint8Array, version: string): UsePairs | undefined {
  const file = decodeColumns<Header>(bytes, MAGIC, 'saved use table', (h) => h.format === FORMAT && h.version === version);
  if (!file) return undefined;
  const usedAt = file.columns.get('usedAt');
  const used = file.columns.get('used');
  if (!(usedAt instanceof Int32Array) || !(used instanceof Int32Array)) throw new Error('saved use table without its two int32 columns');
  return { usedAt, used };
}
