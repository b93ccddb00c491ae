/**
 * A reader that entered LoadedIndex.current() before an index run of this process started must not catch up, reload
 * or close the database the run writes to, whatever it finds on disk when its awaits return. The rule "while this
 * process writes, read its database" held only on entry; a reader parked on `storage.stamp()` then reloaded over the
 * run's database (seen once as the run failing with sqlite's "out of memory", its message for a closed handle).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IndexStorage } from '../../src/core/ports';
import type { IndexDatabase } from '../../src/core/store/database';
import { LoadedIndex } from '../../src/core/store/loaded-index';

/** A stand-in database that only records whether it was closed (the run's own database, in this test). */
function runDatabase(): IndexDatabase & { closed: boolean } {
  const db = { closed: false, close() { db.closed = true; } };
  return db as unknown as IndexDatabase & { closed: boolean };
}

describe('LoadedIndex: a reader parked across the start of a run', () => {
  it('returns the run’s database and leaves it open when the image changed meanwhile', async () => {
    let release!: (stamp: string) => void;
    const stampGate = new Promise<string>((resolve) => { release = resolve; });
    let opened = 0;
    const storage = {
      location: '/tmp/index.db',
      stamp: () => stampGate,
      journalSize: async () => 0,
      openImage: async () => { opened++; return undefined; },
    } as unknown as IndexStorage;
    const loaded = new LoadedIndex({ storage, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} }, assets: {} as never }, async () => ({}));
    const db = runDatabase();
    loaded.replace(db, 'image-1');
    const reading = loaded.current();
    // The run starts while the reader waits for the stamp, and its first write replaces the image on disk.
    loaded.writingNow = true;
    release('image-2');
    assert.equal(await reading, db);
    assert.equal(db.closed, false);
    assert.equal(opened, 0, 'the reader must not load the image the run is writing');
  });
});
