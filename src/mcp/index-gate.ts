/**
 * Keeps the index fresh enough to answer from, in the background. Policy:
 * - at startup one run starts at once: incremental when an index exists (cheap when nothing changed: a walk and a
 *   stat per file), full when it is missing or unusable (the engine decides);
 * - a query waits for a run under way (sharing it with every other waiting call) instead of answering from nothing;
 * - a query arriving more than `refreshIntervalMs` after the last completed run starts a new incremental run first,
 *   so files an agent just edited are searched as they are now;
 * - a wait is capped (`maxWaitMs`): after that the query answers from the index as it is, or says indexing is
 *   still going, so hosts with short tool timeouts get an answer they can act on.
 */
import type { Engine } from '../core/engine';
import type { IndexProgress } from '../core/model';
import type { Logger } from '../core/ports';

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
}

export type ProgressListener = (p: IndexProgress) => void;

export class IndexGate {
  private run: Promise<void> | undefined;
  private progress: IndexProgress | undefined;
  private lastRunAt = Number.NEGATIVE_INFINITY;
  private lastError: string | undefined;
  private readonly listeners = new Set<ProgressListener>();
  private readonly abort = new AbortController();
  private readonly now: () => number;

  constructor(private readonly engine: Engine, private readonly logger: Logger, private readonly options: IndexGateOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the startup run (when allowed). */
  start(): void {
    if (this.options.autoIndex) void this.kick('startup');
  }

  /** Waits until the index is as fresh as this policy makes it; never throws (queries report their own errors). */
  async ready(onProgress?: ProgressListener, signal?: AbortSignal): Promise<void> {
    if (!this.options.autoIndex) return;
    if (!this.run && this.now() - this.lastRunAt >= this.options.refreshIntervalMs) void this.kick('refresh');
    const run = this.run;
    if (!run) return;
    if (onProgress) {
      this.listeners.add(onProgress);
      if (this.progress) onProgress(this.progress);
    }
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
      if (onProgress) this.listeners.delete(onProgress);
    }
  }

  activity(): GateActivity {
    const base = {
      ...(Number.isFinite(this.lastRunAt) ? { lastRunAt: new Date(this.lastRunAt).toISOString() } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
    if (!this.options.autoIndex) return { state: 'disabled', ...base };
    if (this.run) return { state: 'indexing', ...(this.progress ? { progress: this.progress } : {}), ...base };
    return { state: 'idle', ...base };
  }

  /** "parsing 120/390 files" while a run is under way. */
  describeRun(): string | undefined {
    if (!this.run) return undefined;
    return this.progress ? describeProgress(this.progress) : 'starting';
  }

  async dispose(): Promise<void> {
    this.abort.abort();
    await this.run;
  }

  private kick(reason: string): Promise<void> {
    if (this.run) return this.run;
    const started = this.now();
    this.progress = undefined;
    this.logger.debug(`index (${reason}): starting`);
    this.run = this.engine
      .index({
        signal: this.abort.signal,
        onProgress: (p) => {
          this.progress = p;
          for (const l of this.listeners) l(p);
        },
      })
      .then(
        (outcome) => {
          this.lastError = undefined;
          this.logger.info(`index (${reason}): ${outcome.parsed} parsed, ${outcome.unchanged} unchanged, ${outcome.removed} removed in ${this.now() - started} ms`);
        },
        (e: unknown) => {
          this.lastError = e instanceof Error ? e.message : String(e);
          if (!this.abort.signal.aborted) this.logger.warn(`index (${reason}) failed: ${this.lastError}`);
        },
      )
      .finally(() => {
        // A failed run also counts: retrying on every call would hammer a broken workspace.
        this.lastRunAt = this.now();
        this.run = undefined;
        this.progress = undefined;
      });
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
