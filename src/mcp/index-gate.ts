/**
 * Decides when a query waits for indexing. Policy:
 * - when a usable index exists, every query answers from it at once; refreshing happens in the background and never
 *   delays a query (the host watches the workspace and feeds the engine's change queue; the engine commits queued
 *   files a question names just in time, before answering it);
 * - only when there is no usable index (first start, damaged, written by another version) does a query wait for the
 *   build, sharing it with every other waiting call, for at most `maxWaitMs`; after that it answers from what there
 *   is, which says how far indexing got;
 * - at startup one run starts: incremental when an index exists (catching up with changes made while no server ran),
 *   full when it is missing or unusable (the engine decides);
 * - when the workspace is not watched (the watcher failed or is off), a query arriving more than
 *   `refreshIntervalMs` after the last run starts an incremental run in the background, without waiting for it.
 */
import type { Engine, IndexOutcome, IndexProgress, Logger } from '../core';
import { IndexSupervisor } from '../node/index-supervisor';

export interface IndexGateOptions {
  /** Index when missing or stale; false = never write the index (queries on a missing index fail with advice). */
  autoIndex: boolean;
  refreshIntervalMs: number;
  maxWaitMs: number;
  now?: () => number;
}

export interface GateActivity {
  state: 'disabled' | 'idle' | 'indexing';
  /** Set while indexing. */
  progress?: IndexProgress;
  /** ISO time the last run finished. */
  lastRunAt?: string;
  /** The last run's failure, until a run succeeds. */
  lastError?: string;
  /** Changed files reach the index through a workspace watcher (else through refresh runs). */
  watching: boolean;
}

export type ProgressListener = (p: IndexProgress) => void;

export class IndexGate {
  /** The run this gate started and queries may wait for; the supervisor runs it. */
  private run: Promise<void> | undefined;
  private readonly runs: IndexSupervisor;
  /** Whether a usable index exists: unknown until probed, then kept (a finished run makes it true). */
  private usable: boolean | undefined;
  private probing: Promise<boolean> | undefined;
  private watching = false;
  private readonly abort = new AbortController();
  private readonly now: () => number;

  constructor(private readonly engine: Engine, logger: Logger, private readonly options: IndexGateOptions) {
    this.now = options.now ?? Date.now;
    this.runs = new IndexSupervisor(logger, this.now);
  }

  /**
   * Starts the startup run (when allowed). It reads files once `after` settles (the host's watcher is in place, so a
   * change is seen by one or the other) and the index has been looked at (loading it is shared with queries); it
   * counts as under way from now on.
   */
  start(after?: Promise<unknown>): void {
    // Then what questions need is loaded while the agent is still reading the tool list, not on its first question.
    const startup = this.options.autoIndex ? this.kick('startup', Promise.all([after, this.hasIndex()])) : Promise.resolve();
    void startup.then(() => (this.abort.signal.aborted ? undefined : this.engine.warm()));
  }

  /** Whether changed files arrive through a watcher; without one, queries start background refreshes now and then. */
  setWatching(watching: boolean): void {
    this.watching = watching;
  }

  /** A tool found the index missing or unusable after all (deleted or damaged from outside): look again next time. */
  indexLost(): void {
    this.usable = undefined;
  }

  /**
   * Returns at once when a usable index exists; otherwise waits for the build (capped by maxWaitMs, or until
   * `signal` aborts). Never throws: queries report their own errors.
   */
  async ready(onProgress?: ProgressListener, signal?: AbortSignal): Promise<void> {
    if (!this.options.autoIndex) return;
    const due = !this.run && this.now() - this.runs.lastRunAt >= this.options.refreshIntervalMs;
    if (await this.hasIndex()) {
      if (due && !this.watching) void this.kick('refresh');
      return;
    }
    // A failed build is retried no more often than refreshes, or every call would hammer a broken workspace.
    const run = this.run ?? (due ? this.kick('build') : undefined);
    if (!run) return;
    const listening = onProgress && this.runs.onProgress(onProgress);
    if (onProgress && this.runs.progress) onProgress(this.runs.progress);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        run,
        new Promise<void>((resolve) => { timer = setTimeout(resolve, this.options.maxWaitMs); }),
        new Promise<void>((resolve) => {
          onAbort = resolve;
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      listening?.dispose();
    }
  }

  activity(): GateActivity {
    const { lastRunAt, lastError, progress } = this.runs;
    const base = {
      ...(Number.isFinite(lastRunAt) ? { lastRunAt: new Date(lastRunAt).toISOString() } : {}),
      ...(lastError ? { lastError: lastError.message } : {}),
      watching: this.watching,
    };
    if (!this.options.autoIndex) return { state: 'disabled', ...base };
    if (this.run) return { state: 'indexing', ...(progress ? { progress } : {}), ...base };
    return { state: 'idle', ...base };
  }

  /** "parsing 120/390 files" while a run is under way. */
  describeRun(): string | undefined {
    if (!this.run) return undefined;
    return this.runs.progress ? describeProgress(this.runs.progress) : 'starting';
  }

  async dispose(): Promise<void> {
    this.abort.abort();
    await this.run;
  }

  /** Probes once (loading the index, which the first query needs anyway) and remembers the answer. */
  private hasIndex(): Promise<boolean> {
    if (this.usable !== undefined) return Promise.resolve(this.usable);
    this.probing ??= this.engine.status().then((s) => s.exists, () => false).then((exists) => {
      this.probing = undefined;
      this.usable ??= exists;
      return this.usable;
    });
    return this.probing;
  }

  private kick(reason: string, after?: Promise<unknown>): Promise<void> {
    if (this.run) return this.run;
    const index = (): Promise<IndexOutcome> => this.runs.run(this.engine, { reason, signal: this.abort.signal });
    // A failed run also counts as a run (the supervisor keeps when it ended): retrying on every call would hammer a
    // broken workspace.
    this.run = (after ? after.then(index, index) : index())
      .then(() => { this.usable = true; }, () => undefined)
      .finally(() => { this.run = undefined; });
    return this.run;
  }
}

export function describeProgress(p: IndexProgress): string {
  switch (p.phase) {
    case 'walking': return 'listing files';
    case 'parsing': return `parsing ${p.done}/${p.total} files`;
    case 'persisting': return 'writing the index';
    case 'done': return 'done';
  }
}
