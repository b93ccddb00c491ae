/**
 * The single-writer lock of the index: a lock file holding the writer's pid and a token of its own, made whole in
 * one step (written to a file of our own, then hard-linked to the lock's name, which fails when the name exists).
 * A lock whose process is gone (a writer killed mid-run) is taken over — without removing a fresh lock by mistake:
 * waiters that all saw the same stale lock would otherwise each remove "it", the later ones removing the lock the
 * first one had just made, and both would write. A stale lock is claimed by renaming it to a name of our own, and
 * the claim is checked by content: when the file renamed is not the one found stale, it is linked back.
 *
 * Not proper-lockfile: its stale takeover (rmdir, then mkdir) has this very race (moxystudio/node-proper-lockfile#121).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { EngineError, writeFailure } from '../core';

const LOCK_WAIT_MS = 120_000;

/** The file operations the lock uses (node:fs/promises; a test may interpose on them to force an interleaving). */
export type LockFs = Pick<typeof fsp, 'readFile' | 'writeFile' | 'rm' | 'rename' | 'link'>;

/** Whether a process runs (EPERM: it does, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;
const ownName = (lockPath: string, what: string): string => `${lockPath}.${process.pid}.${randomBytes(6).toString('hex')}.${what}`;

/** Waits for the lock at `lockPath` (up to two minutes) and takes it; resolves to its release. */
export async function acquireIndexLock(lockPath: string, what: string, fs: LockFs = fsp): Promise<() => Promise<void>> {
  const started = Date.now();
  const mine = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  const draft = ownName(lockPath, 'new');
  await fs.writeFile(draft, mine).catch((e: unknown) => { throw writeFailure(e, lockPath); });
  try {
    for (;;) {
      try {
        await fs.link(draft, lockPath);
        return async () => {
          // Only our own lock: one taken over from us (it should not be) belongs to its new holder.
          if (await fs.readFile(lockPath, 'utf8').catch(() => undefined) === mine) await fs.rm(lockPath, { force: true });
        };
      } catch (e) {
        if (code(e) !== 'EEXIST') throw writeFailure(e, lockPath);
      }
      const found = await fs.readFile(lockPath, 'utf8').catch((e: unknown) => { if (code(e) === 'ENOENT') return undefined; throw writeFailure(e, lockPath); });
      if (found === undefined) continue; // released meanwhile
      const holder = Number.parseInt(found, 10);
      if (!(holder > 0) || !alive(holder)) {
        await claimStale(fs, lockPath, found);
        continue;
      }
      if (Date.now() - started > LOCK_WAIT_MS) {
        throw new EngineError('index_locked', `another process (pid ${holder}) is writing the index ${what}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await fs.rm(draft, { force: true });
  }
}

/**
 * Removes the stale lock whose content is `stale` from `lockPath`, or nothing: rename is atomic, so exactly one
 * waiter moves any one file away; one that moved another file (a fresh lock, made after the stale one was taken
 * away) puts it back. Every lock holds a token of its own, so equal content means the same lock.
 */
async function claimStale(fs: LockFs, lockPath: string, stale: string): Promise<void> {
  const claimed = ownName(lockPath, 'stale');
  try {
    await fs.rename(lockPath, claimed);
  } catch (e) {
    if (code(e) === 'ENOENT') return; // claimed by another waiter
    throw writeFailure(e, lockPath);
  }
  try {
    if (await fs.readFile(claimed, 'utf8') !== stale) {
      // link fails when yet another lock was made meanwhile: that one stands (the one put back would be lost anyway).
      await fs.link(claimed, lockPath).catch(() => undefined);
    }
  } finally {
    await fs.rm(claimed, { force: true });
  }
}
