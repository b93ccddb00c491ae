/**
 * Freshness wired to the index lifecycle: watcher notices queue up, queued files are committed by index runs (the
 * whole workspace when HEAD moved), and the stamp every answer carries is read from the index's meta row.
 */
import type { IndexRunOptions } from '../index/indexer';
import type { IndexOutcome } from '../model';
import type { EngineDeps } from '../ports';
import type { IndexDatabase } from '../store/database';
import type { IndexLifecycle } from '../store/index-lifecycle';
import type { QueuePolicy } from './change-queue';
import { createFreshnessController, type ChangeNotice, type FreshnessStamp } from './freshness';
import { readGitHead } from './git-head';
import { createPendingChanges } from './pending';

export interface IndexFreshness {
  /** An index run; a run over the whole workspace then takes what it indexed as it is now off the queue. */
  index(options?: IndexRunOptions & { full?: boolean }): Promise<IndexOutcome>;
  noteChanges(changes: ChangeNotice[]): Promise<void>;
  syncNow(): Promise<void>;
  justInTime(text: string): Promise<void>;
  /**
   * The stamp without the one-time warnings, once every notice given so far is queued; from `db` when the caller
   * has already read the index (status), so it is not read twice.
   */
  stamp(db?: IndexDatabase): Promise<FreshnessStamp>;
  /** The stamp an answer carries: warnings that arose since the last answer go out once, here. */
  freshness(): Promise<FreshnessStamp>;
  dispose(): void;
}

export function createIndexFreshness(deps: EngineDeps, lifecycle: IndexLifecycle, queuePolicy?: QueuePolicy): IndexFreshness {
  async function index(options: IndexRunOptions & { full?: boolean } = {}): Promise<IndexOutcome> {
    const run = lifecycle.run(options);
    if (options.onlyPaths) return run;
    const outcome = await run;
    await pending.settle();
    return outcome;
  }

  /**
   * Commits queued paths. When HEAD moved since the last index (a branch switch or pull), the whole workspace is
   * re-walked as one batch instead, so answers never mix files from two branches.
   */
  async function commitQueued(paths: string[]): Promise<void> {
    const head = await readGitHead(deps.root, deps.fs);
    let indexedHead: string | undefined;
    try {
      indexedHead = (await lifecycle.readable()).meta().git_head;
    } catch {
      indexedHead = undefined;
    }
    const moved = head?.commit !== undefined && indexedHead !== undefined && indexedHead !== '' && head.commit !== indexedHead;
    if (moved) deps.logger.info(`HEAD moved from ${indexedHead!.slice(0, 12)} to ${head!.commit!.slice(0, 12)}: re-indexing the workspace as one batch`);
    await index(moved || indexedHead === undefined ? {} : { onlyPaths: paths });
  }
  const controller = createFreshnessController(deps.clock, commitQueued, queuePolicy);
  const pending = createPendingChanges(controller, lifecycle.readable, deps.root, deps.fs);

  async function stampNow(db?: IndexDatabase): Promise<FreshnessStamp> {
    const queued = controller.queued().map((c) => c.path);
    try {
      const meta = (db ?? await lifecycle.readable()).meta();
      return {
        ...(meta.git_head ? { indexedHead: meta.git_head } : {}),
        ...(meta.git_branch ? { indexedBranch: meta.git_branch } : {}),
        ...(meta.updated_at ? { indexedAt: new Date(Number(meta.updated_at)).toISOString() } : {}),
        queued,
      };
    } catch {
      return { queued };
    }
  }

  return {
    index,
    noteChanges: pending.noteChanges,
    syncNow: async () => { await pending.settled(); return controller.flush(); },
    justInTime: pending.justInTime,
    stamp: (db) => pending.settled().then(() => stampNow(db)),
    async freshness() {
      await pending.settled();
      const stamp = await stampNow();
      const warnings = lifecycle.takeWarnings();
      return warnings.length ? { ...stamp, warnings } : stamp;
    },
    dispose: () => controller.dispose(),
  };
}
