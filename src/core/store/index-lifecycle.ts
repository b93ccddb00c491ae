/**
 * The database lifecycle behind the façade: open the persisted index lazily for reads, repair a damaged journal once
 * per damage, and run index runs one at a time in this process (the storage lock covers other processes).
 */
import type { EngineConfig } from '../config';
import type { IndexRunOptions } from '../index/indexer';
import type { IndexOutcome } from '../model';
import type { EngineDeps } from '../ports';
import type { IndexDatabase } from './database';
import { expectedMeta } from './expected-meta';
import { indexUnderLock, type RunContext } from './index-run';
import type { JournalDamage } from './journal';
import { LoadedIndex } from './loaded-index';
import { isForeign } from '../index/shared-index';
import { exportImage, importImage } from './shared-image';

export interface IndexLifecycle {
  /** For queries: the index as last persisted by anyone (loaded, caught up or reloaded as needed). */
  readable(): Promise<IndexDatabase>;
  /** `readable()`, kept open for a request until `letGo` (a reload meanwhile does not close it under the request). */
  hold(): Promise<IndexDatabase>;
  letGo(db: IndexDatabase): void;
  /** One index run, after the runs of this process already queued. */
  run(options: IndexRunOptions & { full?: boolean }): Promise<IndexOutcome>;
  /** Damage this process sees in the journal and could not repair. */
  damage(): JournalDamage | undefined;
  /** Warnings that arose since the last call (a damaged journal repaired), each given once. */
  takeWarnings(): string[];
  /** The index as one self-contained image (its journal folded in), to share. */
  exportImage(): Promise<Uint8Array>;
  /** Puts an exported image in place of this workspace's index (versions checked first; see shared-image.ts). */
  importImage(image: Uint8Array): Promise<void>;
  /** The root the index was last brought up to date under, when it is not this one (copied, not caught up yet). */
  foreignRoot(): Promise<string | undefined>;
  /** Waits for the runs under way, then closes the database. */
  close(): Promise<void>;
}

export function createIndexLifecycle(deps: EngineDeps, cfg: EngineConfig): IndexLifecycle {
  const meta = expectedMeta(deps.assets);
  const loaded = new LoadedIndex(deps, meta);
  const warnings: string[] = [];
  const ctx: RunContext = { deps, cfg, loaded, expectedMeta: meta, warn: (m) => warnings.push(m) };
  let writing: Promise<unknown> = Promise.resolve();
  /** The damage a repair was last tried for: one try per damage and image, whatever its outcome. */
  let repairTried: string | undefined;

  function queued<T>(run: () => Promise<T>): Promise<T> {
    const next = writing.then(run);
    writing = next.catch(() => undefined);
    return next;
  }

  /** A damaged journal seen by a reader cannot be told from an append under way: look again under the lock. */
  async function readable(): Promise<IndexDatabase> {
    const current = await loaded.current();
    // A run of this process under way checks the journal under the lock itself (and may be what is asking).
    if (!loaded.damage || loaded.writingNow) return current;
    const key = `${loaded.stamp}:${loaded.damage.at}`;
    if (repairTried === key) return current;
    repairTried = key;
    try {
      await queued(() => indexUnderLock(ctx, {}, true));
    } catch (e) {
      deps.logger.warn(`index journal at ${deps.storage.location} is damaged (${loaded.damage?.detail ?? 'see above'}) and could not be repaired: ${e instanceof Error ? e.message : String(e)}`);
    }
    // The repair handed over its database, or failed and dropped it: either way, what is current now.
    return loaded.current();
  }

  return {
    readable,
    hold: () => readable().then((db) => { loaded.hold(db); return db; }),
    letGo: (db) => loaded.letGo(db),
    run: (options) => queued(() => indexUnderLock(ctx, options, false)).then((outcome) => outcome!),
    damage: () => loaded.damage,
    takeWarnings: () => warnings.splice(0),
    exportImage: async () => exportImage(deps.assets, await readable()),
    importImage: (image) => importImage(deps, loaded, meta, image, queued),
    async foreignRoot() {
      const stored = (await readable()).meta();
      return isForeign(stored, deps.root) ? stored.root : undefined;
    },
    async close() {
      await writing;
      loaded.replace(undefined, undefined);
    },
  };
}
