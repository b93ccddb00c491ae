/**
 * The single-writer lock of the Node index storage (src/node/index-lock.ts). A writer killed mid-run leaves its lock
 * file behind and waiters take it over. Two waiters that both saw the same stale lock must not remove each other's
 * fresh one: two writers holding the lock at once write two runs into one journal. The interleaving is forced by
 * holding one waiter back, on real files, just before it removes the lock it found stale.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, promises as fsp, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { acquireIndexLock, type LockFs } from '../../src/node/index-lock';
import { createFileIndexStorage } from '../../src/node/index-storage';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A pid no process has (above any pid_max): the lock's holder is gone. */
const DEAD_PID = 2 ** 30;

function staleLock(): string {
  const dir = mkdtempSync(join(tmpdir(), 'co-lock-'));
  dirs.push(dir);
  const lockPath = join(dir, 'index.db.lock');
  writeFileSync(lockPath, String(DEAD_PID));
  return lockPath;
}

/** Real file operations that stop before the first removal (rm or rename) of `path` until `go` resolves. */
function heldBackBeforeRemoving(path: string, go: Promise<void>): { fs: LockFs; reached: Promise<void> } {
  let reach!: () => void;
  const reached = new Promise<void>((r) => { reach = r; });
  let first = true;
  const gate = async (target: unknown): Promise<void> => {
    if (target !== path || !first) return;
    first = false;
    reach();
    await go;
  };
  const fs: LockFs = {
    ...fsp,
    rm: (async (p: string, o?: object) => { await gate(p); return fsp.rm(p, o); }) as LockFs['rm'],
    rename: (async (from: string, to: string) => { await gate(from); return fsp.rename(from, to); }) as LockFs['rename'],
  };
  return { fs, reached };
}

describe('index lock', () => {
  it('keeps a fresh lock when a second waiter acts late on the stale one it saw', async () => {
    const lockPath = staleLock();
    let letGo!: () => void;
    const late = heldBackBeforeRemoving(lockPath, new Promise((r) => { letGo = r; }));
    const events: string[] = [];
    // B sees the stale lock and is held back before removing it; meanwhile A takes the lock over.
    const b = acquireIndexLock(lockPath, 'index.db', late.fs).then((release) => { events.push('B holds'); return release; });
    await late.reached;
    const releaseA = await acquireIndexLock(lockPath, 'index.db');
    events.push('A holds');
    letGo();
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(existsSync(lockPath), 'A\'s lock file is still there');
    assert.match(readFileSync(lockPath, 'utf8'), new RegExp(`^${process.pid} `));
    events.push('A releases');
    await releaseA();
    const releaseB = await b;
    await releaseB();
    assert.deepEqual(events, ['A holds', 'A releases', 'B holds'], 'B waited for A instead of removing its fresh lock');
    assert.ok(!existsSync(lockPath), 'released');
  });

  it('is taken over from a holder that is gone, and released', async () => {
    const lockPath = staleLock();
    const release = await acquireIndexLock(lockPath, 'index.db');
    assert.match(readFileSync(lockPath, 'utf8'), new RegExp(`^${process.pid} `));
    await release();
    assert.ok(!existsSync(lockPath));
    await (await acquireIndexLock(lockPath, 'index.db'))();
  });

  it('clears what waiters killed while taking the lock left behind, once the lock is held', async () => {
    const lockPath = staleLock();
    const litter = [`${lockPath}.${DEAD_PID}.0a1b2c3d4e5f.new`, `${lockPath}.${DEAD_PID}.0a1b2c3d4e5f.stale`];
    const kept = `${lockPath}.${process.pid}.0a1b2c3d4e5f.new`; // a live waiter's draft
    for (const f of [...litter, kept]) writeFileSync(f, `${DEAD_PID} 00\n`);
    const release = await createFileIndexStorage(lockPath.replace(/\.lock$/, '')).lock();
    await release();
    assert.deepEqual(litter.filter((f) => existsSync(f)), []);
    assert.ok(existsSync(kept));
  });
});
