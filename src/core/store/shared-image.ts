/**
 * The index as a file to share (issue 21): export it as one self-contained image, or put an exported image in place
 * of this workspace's index. Versions are checked before anything is replaced (index/shared-index.ts). The image keeps
 * the root it was built under: the next run adopts it (index-run.ts), comparing every file here by content hash, and
 * writes the adopted index as a whole image.
 */
import { bufferDraft, checkIndexVersions } from '../index/shared-index';
import type { AssetLocator, EngineDeps } from '../ports';
import { compactIndex } from './compaction';
import { deadChunkCount } from './postings';
import { IndexDatabase } from './database';
import type { LoadedIndex } from './loaded-index';
import { memoryImage } from './paged-file';
import { persistRun } from './persistence';

/**
 * The readable index with its journal folded in, as bytes, without dead postings: the postings keep a
 * changed file's old rows until compaction, and BM25 counts them, so an export that kept them would rank a little
 * differently from a fresh index on every machine that imports it (seen in the seeded eval harness). The readable
 * index is left as it is; the rebuild happens on a copy.
 */
export async function exportImage(assets: AssetLocator, source: IndexDatabase): Promise<Uint8Array> {
  const plain = bufferDraft();
  source.writeImage(plain);
  if (deadChunkCount(source) === 0) return plain.bytes();
  const copy = await IndexDatabase.open(assets, memoryImage(plain.bytes()));
  try {
    compactIndex(copy, { rebuild: true });
    const compacted = bufferDraft();
    copy.writeImage(compacted);
    return compacted.bytes();
  } finally {
    copy.close();
  }
}

/**
 * Checks `image`, then (under the storage lock, after this process's runs: `queued`) writes it as this
 * workspace's index. Throws index_incompatible or index_corrupt and leaves the current index as it was.
 */
export async function importImage(
  deps: EngineDeps, loaded: LoadedIndex, expectedMeta: () => Promise<Record<string, string>>, image: Uint8Array,
  queued: <T>(run: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const imported = await IndexDatabase.open(deps.assets, memoryImage(image));
  try {
    const meta = imported.meta();
    checkIndexVersions(meta, await expectedMeta());
  } catch (e) {
    imported.close();
    throw e;
  }
  await queued(async () => {
    const release = await deps.storage.lock();
    loaded.writingNow = true;
    try {
      // A whole image with a fresh generation: the old index's journal no longer applies and is reset.
      const { applied } = await persistRun(deps.storage, imported, { full: false, changed: true, applied: 0, limit: 0 });
      loaded.replace(imported, await deps.storage.stamp(), applied);
      loaded.damage = undefined;
    } catch (e) {
      imported.close();
      throw e;
    } finally {
      loaded.writingNow = false;
      await release();
    }
  });
}
