/**
 * The one supervisor of index runs for the two long-lived hosts, the MCP server (mcp/index-gate.ts decides when a
 * query waits) and the language server (server/index-session.ts reports activity to the editor). It runs the
 * engine's index with a controller of its own, so any run can be stopped (background runs included), fans progress
 * out, remembers when the last run ended and why the last one failed, and logs each outcome the same way.
 */
import { type Engine, EngineError, type IndexOutcome, type IndexProgress, type Logger } from '../core';

export interface IndexRunRequest {
  /** Why the run starts (startup, refresh, request …); it prefixes the log lines. */
  reason: string;
  /** Rebuild from scratch; left out, the engine decides. */
  full?: boolean;
  /** Stops this run (the supervisor's cancel() stops every run). */
  signal?: AbortSignal;
  /** Progress of this run only (listeners added with onProgress hear every run). */
  onProgress?: (p: IndexProgress) => void;
}

export class IndexSupervisor {
  private readonly controllers = new Set<AbortController>();
  private readonly listeners = new Set<(p: IndexProgress) => void>();
  private latest: IndexProgress | undefined;
  private endedAt = Number.NEGATIVE_INFINITY;
  private failure: { message: string; code?: string } | undefined;

  constructor(private readonly logger: Logger, private readonly now: () => number = Date.now) {}

  /** How many runs are under way. */
  get running(): number {
    return this.controllers.size;
  }

  /** The latest progress of a run under way. */
  get progress(): IndexProgress | undefined {
    return this.running ? this.latest : undefined;
  }

  /** When the last run ended (failed and cancelled ones too), by `now`; -Infinity before the first. */
  get lastRunAt(): number {
    return this.endedAt;
  }

  /** Why the last run that ended failed, until one succeeds; cancelled runs leave it as it was. */
  get lastError(): { message: string; code?: string } | undefined {
    return this.failure;
  }

  onProgress(listener: (p: IndexProgress) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async run(engine: Engine, request: IndexRunRequest): Promise<IndexOutcome> {
    const { reason, signal } = request;
    const controller = new AbortController();
    this.controllers.add(controller);
    if (signal?.aborted) controller.abort();
    else signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const started = this.now();
    this.logger.debug(`index (${reason}): starting`);
    try {
      const outcome = await engine.index({
        ...(request.full !== undefined ? { full: request.full } : {}),
        signal: controller.signal,
        onProgress: (p) => {
          this.latest = p;
          request.onProgress?.(p);
          for (const l of this.listeners) l(p);
        },
      });
      this.failure = undefined;
      this.logger.info(`index (${reason}): ${outcome.parsed} parsed, ${outcome.unchanged} unchanged, ${outcome.removed} removed in ${this.now() - started} ms`);
      return outcome;
    } catch (e) {
      if (controller.signal.aborted || EngineError.is(e, 'cancelled')) {
        this.logger.info(`index (${reason}): cancelled`);
      } else {
        this.failure = { message: e instanceof Error ? e.message : String(e), ...(EngineError.is(e) ? { code: e.code } : {}) };
        this.logger.warn(`index (${reason}) failed: ${this.failure.message}`);
      }
      throw e;
    } finally {
      this.controllers.delete(controller);
      this.endedAt = this.now();
      if (!this.running) this.latest = undefined;
    }
  }

  /** Asks every run under way to stop; returns how many were asked. */
  cancel(): number {
    for (const c of this.controllers) c.abort();
    return this.controllers.size;
  }
}
