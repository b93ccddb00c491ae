/**
 * One index run under the storage lock: catch the loaded index up (or load, quarantine or rebuild it), run the
 * indexer, and persist the run as a journal record or a whole new image, handing the result to the loaded index.
 * A reader that saw a damaged journal asks for a repair-only run: it runs only when the damage is still there.
 */
import type { EngineConfig } from '../config';
import { readGitHead } from '../freshness/git-head';
import { runIndex, type IndexRunOptions } from '../index/indexer';
import type { IndexOutcome, JournalRepair } from '../model';
import type { EngineDeps } from '../ports';
import { ChangeRecorder } from './changes';
import { IndexDatabase } from './database';
import type { LoadedIndex } from './loaded-index';
import { journalLimit, persistRun } from './persistence';
import { adoptionChanges, isForeign } from '../index/shared-index';

export interface RunContext {
  deps: EngineDeps;
  cfg: EngineConfig;
  loaded: LoadedIndex;
  expectedMeta: () => Promise<Record<string, string>>;
  /** Warnings for the next answer's freshness stamp. */
  warn(message: string): void;
}

/** One index run under the storage lock; with `repairOnly`, only when the journal is damaged (else undefined). */
export async function indexUnderLock(ctx: RunContext, options: IndexRunOptions & { full?: boolean }, repairOnly: boolean): Promise<IndexOutcome | undefined> {
  const { deps, cfg, loaded } = ctx;
  const release = await deps.storage.lock();
  const started = deps.clock.now();
  loaded.writingNow = true;
  try {
    let recovered: IndexOutcome['recovered'];
    let full = options.full ?? false;
    const stamp = await deps.storage.stamp();
    let target = loaded.db && stamp === loaded.stamp ? loaded.db : undefined;
    let applied = 0;
    if (target) applied = loaded.journalEnd = await loaded.catchUp(target, loaded.journalEnd);
    if (!target) {
      const persisted = await loaded.loadPersisted();
      if (persisted.db) {
        target = persisted.db;
        applied = persisted.journalEnd ?? 0;
      } else if (repairOnly) {
        // No image to repair a journal of (gone, or unusable): readers report that, and an index run rebuilds it.
        return undefined;
      } else if (persisted.outdated) {
        // A healthy index from another version is only outdated: rebuilt over, not kept (it can be large).
        deps.logger.info(`index at ${deps.storage.location} is outdated (${persisted.problem}); rebuilding`);
        recovered = { reason: persisted.problem! };
      } else if (persisted.problem) {
        const movedTo = await deps.storage.quarantine(persisted.problem);
        deps.logger.warn(`index at ${deps.storage.location} was unusable (${persisted.problem}); moved to ${movedTo ?? '(removed)'} and rebuilding`);
        recovered = { reason: persisted.problem, ...(movedTo ? { movedTo } : {}) };
      }
    }
    // Damage seen under the lock is not an append under way: the commits past it are lost to every reader.
    const damage = target ? loaded.damage : undefined;
    if (repairOnly && !damage) {
      if (target && target !== loaded.db) loaded.replace(target, stamp, applied);
      else if (target) loaded.journalEnd = applied;
      return undefined;
    }
    if (!target || full) {
      if (target && target !== loaded.db) target.close();
      // Built straight into a new file: the rows of a full run never sit in memory.
      target = await IndexDatabase.create(deps.assets, { ...(await ctx.expectedMeta()), root: deps.root, created_at: String(deps.clock.now()) }, await deps.storage.createImage(), { bulk: true });
      // A full run parses (nearly) every file: its workers boot while the workspace is walked, not after it (the
      // walk's size may start more: indexer.ts). Not sooner: warming turns wasm tier-up on (wasm-tiering.ts), and
      // sql.js compiled after that cost ~0.3 CPU-s more per hono index. A run that may parse nothing (a no-change
      // refresh) starts them only when a batch needs them.
      deps.parser.warm?.(Number.POSITIVE_INFINITY);
      full = true;
    }
    // Small commits go to the journal; a full run (or one too big to record) writes a whole new image.
    const writes = new ChangeRecorder(target, !full && target.meta().generation !== undefined);
    // An index copied from another root: its mtimes say nothing about the files here, so every file is hashed.
    const stored = target.meta();
    const adopting = !full && isForeign(stored, deps.root);
    if (adopting) {
      deps.logger.info(`index at ${deps.storage.location} was built under ${stored.root}; checking every file here by content`);
      for (const change of adoptionChanges(stored, deps.root)) writes.apply(change);
    }
    let report: Awaited<ReturnType<typeof runIndex>>;
    try {
      // A repair must check every file: the damaged record's files are unknown, so a commit of named paths widens.
      const { onlyPaths: _onlyPaths, ...everyFile } = options;
      report = await runIndex(deps, cfg, target, full, damage ? everyFile : options, writes);
    } catch (e) {
      // A run that stops part-way (cancelled, or failed) leaves its database ahead of the files: drop it, and a
      // new build's file with it; the next read loads what is on disk.
      if (target === loaded.db) loaded.replace(undefined, undefined);
      else target.close();
      throw e;
    }
    const head = await readGitHead(deps.root, deps.fs);
    writes.apply({ op: 'meta', values: { git_head: head?.commit ?? '', git_branch: head?.branch ?? '' } });
    // The files were all checked against the image: what the lost commits held is indexed again. Status keeps
    // the note until the next full run; the damaged bytes are cut off by this run's own commit.
    const repair: JournalRepair | undefined = damage && {
      damage: damage.kind, at: damage.at, detail: damage.detail,
      repairedAt: new Date(deps.clock.now()).toISOString(), reindexed: report.parsed + report.removed,
    };
    if (repair) writes.apply({ op: 'meta', values: { journal_repair: JSON.stringify(repair) } });
    // Nothing changed: keep the files as they are (rewriting a large index for a no-op refresh costs seconds).
    const changed = full || adopting || recovered !== undefined || repair !== undefined || report.parsed + report.removed + report.touched > 0;
    for (const w of target.takeKept()) writes.record({ op: 'sql', sql: w.sql, params: w.params });
    let imageBytes: number | undefined;
    try {
      ({ applied, imageBytes } = await persistRun(deps.storage, target, {
        full, changed, applied, limit: await journalLimit(deps.storage, cfg.journalMaxBytes),
        // Adopting restamps every file: as a journal record (14.8 MB at 124k files) every later process would replay
        // it (~1 CPU-s) until a commit folds it, so it becomes a whole image now, once.
        ...(changed && !adopting ? { changes: writes.changes() } : {}),
        onImage: () => options.onProgress?.({ phase: 'persisting', done: report.parsed, total: report.parsed }),
      }));
    } catch (e) {
      // The in-memory index is ahead of the files: drop it so the next read loads what is on disk.
      if (target === loaded.db) loaded.replace(undefined, undefined);
      else target.close();
      throw e;
    }
    loaded.replace(target, await deps.storage.stamp(), applied);
    loaded.damage = undefined;
    if (repair) reportRepair(ctx, repair);
    options.onProgress?.({ phase: 'done', done: report.parsed, total: report.parsed });
    return {
      ...report, ...(recovered ? { recovered } : {}), ...(repair ? { journalRepair: repair } : {}),
      indexBytes: (imageBytes ?? await deps.storage.size()) + applied,
      elapsedMs: deps.clock.now() - started,
    };
  } finally {
    loaded.writingNow = false;
    await release();
  }
}

/** A damaged record lost committed data: a warning in the log and on the next answer; a torn tail is expected after a crash. */
function reportRepair(ctx: RunContext, repair: JournalRepair): void {
  const { deps } = ctx;
  const files = `${repair.reindexed} file${repair.reindexed === 1 ? '' : 's'} indexed again`;
  if (repair.damage === 'corrupt') {
    const message = `the index journal at ${deps.storage.location} was damaged (${repair.detail}); the commits after it were lost, so every file was checked against the index again (${files})`;
    deps.logger.warn(message);
    ctx.warn(message);
  } else {
    deps.logger.info(`the index journal at ${deps.storage.location} ended in an interrupted commit (${repair.detail}); files checked again (${files})`);
  }
}
