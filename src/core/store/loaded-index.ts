/**
 * The index this process holds in memory and where it stands against the files on disk: the image it was loaded
 * from, how far into the journal it has applied, and the damage the journal showed at the last look. Reads load it
 * lazily and reload it when another process replaced the image or appended to the journal.
 */
import { EngineError } from '../errors';
import type { EngineDeps } from '../ports';
import { IndexDatabase } from './database';
import type { JournalDamage } from './journal';
import { catchUp } from './persistence';

type Deps = Pick<EngineDeps, 'storage' | 'logger' | 'assets'>;

/** A persisted index opened for reading, or why there is none that can be used. */
export interface Persisted {
  db?: IndexDatabase;
  journalEnd?: number;
  problem?: string;
  outdated?: boolean;
}

export class LoadedIndex {
  db: IndexDatabase | undefined;
  /** The image `db` was loaded from (storage.stamp()). */
  stamp: string | undefined;
  /** How far into the journal `db` has applied: 0 = no journal of this image's generation read yet. */
  journalEnd = 0;
  /** Journal length when last looked at: an unchanged length means nothing new (even past a torn tail). */
  journalSeen = 0;
  /** What ends the journal short of its last byte past `journalEnd`, at the last look (see journal.ts). */
  damage: JournalDamage | undefined;
  /** True while an index run of this process holds the lock. */
  writingNow = false;
  /** Databases requests still read, by how many: one replaced meanwhile is closed when the last lets go. */
  private readonly held = new Map<IndexDatabase, number>();

  constructor(private readonly deps: Deps, private readonly expectedMeta: () => Promise<Record<string, string>>) {}

  replace(next: IndexDatabase | undefined, stamp: string | undefined, applied = 0): void {
    if (this.db && this.db !== next && !this.held.has(this.db)) this.db.close();
    this.db = next;
    this.stamp = stamp;
    this.journalEnd = applied;
    this.journalSeen = applied;
  }

  /** Keeps `db` open for a request until `letGo(db)`, even when a reload replaces it meanwhile. */
  hold(db: IndexDatabase): void {
    this.held.set(db, (this.held.get(db) ?? 0) + 1);
  }

  letGo(db: IndexDatabase): void {
    const n = (this.held.get(db) ?? 1) - 1;
    if (n > 0) {
      this.held.set(db, n);
      return;
    }
    this.held.delete(db);
    if (db !== this.db) db.close();
  }

  async catchUp(target: IndexDatabase, from: number): Promise<number> {
    const caught = await catchUp(this.deps.storage, this.deps.logger, target, from);
    this.damage = caught.damage;
    return caught.end;
  }

  /** The persisted index (image + journal), or undefined when there is none or it cannot be used (reason given). */
  async loadPersisted(): Promise<Persisted> {
    const image = await this.deps.storage.openImage();
    if (!image) return {};
    try {
      const opened = await IndexDatabase.open(this.deps.assets, image);
      const meta = opened.meta();
      const want = await this.expectedMeta();
      const mismatch = Object.entries(want).find(([k, v]) => meta[k] !== v);
      if (mismatch) {
        opened.close();
        return { outdated: true, problem: `index was written with ${mismatch[0]}=${meta[mismatch[0]] ?? 'none'}, this engine needs ${mismatch[1]}` };
      }
      return { db: opened, journalEnd: await this.catchUp(opened, 0) };
    } catch (e) {
      return { problem: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The index as last persisted by anyone, catching up with the journal or reloading the image as needed. */
  async current(): Promise<IndexDatabase> {
    const { storage } = this.deps;
    // While this process writes, the files on disk run ahead of `db` only through that run, which hands its own
    // database over when it ends; reloading here would close the database the run is still writing to.
    if (this.writingNow && this.db) return this.db;
    const stamp = await storage.stamp();
    // A run may have started during that await (and again below): the same rule holds after every await.
    if (this.writingNow && this.db) return this.db;
    if (this.db && stamp === this.stamp) {
      const size = await storage.journalSize();
      if (size === this.journalSeen || (this.writingNow && this.db)) return this.db;
      // Another process committed to the journal: apply what is new. A journal shorter than what was applied can
      // only come from a reset, which always comes with a new image; reload to be safe.
      if (size >= this.journalEnd) {
        this.journalEnd = await this.catchUp(this.db, this.journalEnd);
        this.journalSeen = size;
        return this.db;
      }
    }
    if (stamp === undefined) {
      if (this.db) return this.db; // indexed in memory by this process but not persisted (should not happen)
      throw new EngineError('not_initialized', `no index at ${storage.location}; run \`context-oracle index\` first`);
    }
    const loaded = await this.loadPersisted();
    if (!loaded.db) {
      throw new EngineError(loaded.problem ? 'index_corrupt' : 'not_initialized', loaded.problem
        ? `the index at ${storage.location} cannot be used (${loaded.problem}); run \`context-oracle index\` to rebuild it`
        : `no index at ${storage.location}; run \`context-oracle index\` first`);
    }
    if (this.writingNow && this.db) {
      loaded.db.close();
      return this.db;
    }
    this.replace(loaded.db, stamp, loaded.journalEnd);
    return loaded.db;
  }
}
