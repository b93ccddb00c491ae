/**
 * The storage as the engine writes through it: a write that fails for a system reason (a full disk, a read-only
 * folder) comes out as the EngineError saying what happened and where (errors.ts writeFailure), wherever it fails:
 * taking the lock, creating or filling an image (also from inside SQLite, while a full run builds into the draft),
 * syncing and renaming it, or appending to the journal. Storages that already name the exact file (the Node one)
 * pass their EngineErrors through unchanged.
 */
import { writeFailure } from '../errors';
import type { ImageDraft, IndexStorage } from '../ports';

export function reportingWriteErrors(storage: IndexStorage): IndexStorage {
  // The file a system error names (Node's carry `path` where a path was given), else the index itself.
  const named = (e: unknown, fallback: string): string => {
    const path = (e as { path?: unknown } | undefined)?.path;
    return typeof path === 'string' ? path : fallback;
  };
  const where = storage.location;
  const journal = `${where} (its journal)`;
  const draftOf = (draft: ImageDraft): ImageDraft => ({
    get size() { return draft.size; },
    read: (into, position) => draft.read(into, position),
    write(bytes, position) {
      try {
        draft.write(bytes, position);
      } catch (e) {
        throw writeFailure(e, named(e, where));
      }
    },
    async commit() {
      try {
        await draft.commit();
      } catch (e) {
        throw writeFailure(e, named(e, where));
      }
    },
    close: () => draft.close(),
  });
  return {
    location: where,
    openImage: () => storage.openImage(),
    readJournal: (offset) => storage.readJournal(offset),
    journalSize: () => storage.journalSize(),
    quarantine: (reason) => storage.quarantine(reason),
    size: () => storage.size(),
    stamp: () => storage.stamp(),
    createImage: () => storage.createImage().then(draftOf, (e: unknown) => { throw writeFailure(e, named(e, where)); }),
    appendJournal: (at, bytes) => storage.appendJournal(at, bytes).catch((e: unknown) => { throw writeFailure(e, named(e, journal)); }),
    lock: () => storage.lock().catch((e: unknown) => { throw writeFailure(e, named(e, where)); }),
    readSidecar: (name) => storage.readSidecar(name),
    writeSidecar: (name, parts) => storage.writeSidecar(name, parts).catch((e: unknown) => { throw writeFailure(e, named(e, `${where}.${name}`)); }),
  };
}
