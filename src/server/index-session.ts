/**
 * The language server's hold on one workspace index: owns the engine, tracks what it is doing (IndexActivity) and
 * reports every change through `notify`. Independent of the LSP library so it can be tested in plain Node.
 */
import { type Engine, EngineError, type IndexOutcome, type IndexProgress, type Logger, type SearchHit } from '../core';
import { IndexSupervisor } from '../node/index-supervisor';
import type {
  IndexActivity, IndexParams, OracleNotifications, SearchParams, ServerSettings, StatusResult,
} from '../protocol/language-server';

export interface IndexSessionOptions {
  /** Absolute workspace folder, or undefined when the client opened none. */
  root: string | undefined;
  settings: ServerSettings;
  logger: Logger;
  createEngine(root: string, settings: ServerSettings): Engine;
  notify(activity: OracleNotifications['contextOracle/activity']): void;
  /** Minimum time between two progress notifications (ms); start, phase changes and the end always go out. */
  progressIntervalMs?: number;
  now?: () => number;
}

export interface IndexSession {
  activity(): IndexActivity;
  /** The current engine (replaced on reconfigure); throws not_initialized when no folder is open. */
  engine(): Engine;
  index(params: IndexParams, signal?: AbortSignal): Promise<IndexOutcome>;
  status(): Promise<StatusResult>;
  search(params: SearchParams): Promise<SearchHit[]>;
  /** Cancels every run under way (background runs included); returns how many were asked to stop. */
  cancel(): number;
  /** New settings: a new engine (after the current run), then an incremental run when `reindex`. */
  reconfigure(settings: ServerSettings, reindex: boolean): Promise<void>;
  dispose(): Promise<void>;
}

export function createIndexSession(options: IndexSessionOptions): IndexSession {
  const { root, logger, notify } = options;
  const interval = options.progressIntervalMs ?? 150;
  const now = options.now ?? (() => Date.now());
  let engine: Engine | undefined = root ? options.createEngine(root, options.settings) : undefined;
  let current: IndexActivity = root ? { state: 'starting' } : { state: 'no-folder' };
  // It gives every run a controller of its own, so a user can stop a background run the client never sent a token for.
  const runs = new IndexSupervisor(logger, now);
  let reconfiguring: Promise<unknown> = Promise.resolve();

  function requireEngine(): Engine {
    if (!engine) throw new EngineError('not_initialized', 'no workspace folder is open, so there is nothing to index');
    return engine;
  }

  function publish(next: IndexActivity, extra: Partial<OracleNotifications['contextOracle/activity']> = {}): void {
    current = next;
    notify({ ...next, ...extra });
  }

  async function index(params: IndexParams, signal?: AbortSignal): Promise<IndexOutcome> {
    const eng = requireEngine();
    const full = params.full ?? false;
    let lastSent = now();
    let lastPhase: IndexProgress['phase'] = 'walking';
    publish({ state: 'indexing', full, progress: { phase: 'walking', done: 0, total: 0 } });
    const onProgress = (p: IndexProgress): void => {
      const t = now();
      // 'done' is followed at once by the 'ready' notification; equal phases are throttled.
      if (p.phase === 'done' || (p.phase === lastPhase && t - lastSent < interval)) {
        current = { state: 'indexing', full, progress: p }; // keep status() exact without flooding the client
        return;
      }
      lastSent = t;
      lastPhase = p.phase;
      publish({ state: 'indexing', full, progress: p });
    };
    let failure: IndexActivity['error'];
    try {
      return await runs.run(eng, { reason: full ? 'full' : 'incremental', full, onProgress, ...(signal ? { signal } : {}) });
    } catch (e) {
      if (!EngineError.is(e, 'cancelled')) failure = { message: e instanceof Error ? e.message : String(e), ...(EngineError.is(e) ? { code: e.code } : {}) };
      throw e;
    } finally {
      // The last run to end reports: an error, or (success and cancellation alike) the index as it now stands.
      if (runs.running === 0) {
        if (failure) publish({ state: 'error', error: failure });
        else await publishReady(eng);
      }
    }
  }

  async function publishReady(eng: Engine): Promise<void> {
    try {
      publish({ state: 'ready' }, { status: await eng.status() });
    } catch (e) {
      publish({ state: 'error', error: { message: e instanceof Error ? e.message : String(e), ...(EngineError.is(e) ? { code: e.code } : {}) } });
    }
  }

  return {
    activity: () => current,
    engine: requireEngine,
    index,
    cancel: () => runs.cancel(),
    async status() {
      if (!engine) {
        throw new EngineError('not_initialized', 'no workspace folder is open');
      }
      return { index: await engine.status(), activity: current };
    },
    async search(params) {
      const { query, ...rest } = params;
      if (typeof query !== 'string' || !query.trim()) throw new EngineError('required', 'search needs a non-empty query');
      return requireEngine().search(query, rest);
    },
    reconfigure(settings, reindex) {
      // One at a time, in order: the last settings win and no engine is disposed while another swap is under way.
      const next = reconfiguring.then(async () => {
        if (!root) return;
        const old = engine;
        engine = options.createEngine(root, settings);
        await old?.dispose();
        if (reindex) await index({});
      });
      reconfiguring = next.catch(() => undefined);
      return next;
    },
    async dispose() {
      const old = engine;
      engine = undefined;
      await old?.dispose();
    },
  };
}
