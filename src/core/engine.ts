/**
 * The façade every host uses: createEngine(deps) → Engine. It only composes: the database lifecycle (store/
 * index-lifecycle.ts), freshness (freshness/index-freshness.ts) and the capabilities, each built with its peers
 * passed in. Every method that reads the index opens one request (store/index-request.ts): one freshness check,
 * one database handed down.
 */
import { DEFAULT_CONFIG, type EngineConfig } from './config';
import { EngineError } from './errors';
import type { Engine } from './engine-api';
import type { EngineDeps } from './ports';
import { createIndexLifecycle } from './store/index-lifecycle';
import { createIndexRequests } from './store/index-request';
import { indexStatus } from './store/index-status';
import { reportingWriteErrors } from './store/write-errors';
import { searchChunks } from './search/full-text';
import { createIndexFreshness } from './freshness/index-freshness';
import type { QueuePolicy } from './freshness/change-queue';
import { createNavigation } from './navigation/service';
import { createContextService } from './context/service';
import { createGraphFacade } from './graph/service';
import { createOracleFacade } from './oracle/facade';
import { analyseQuestion } from './question/analysis';
import { redactingEngine, redactingHttp, redactingWriter } from './redact/redacting-engine';

export type { Engine } from './engine-api';

export function createEngine(given: EngineDeps, config: Partial<EngineConfig> = {}, queuePolicy?: QueuePolicy): Engine {
  const cfg: EngineConfig = { ...DEFAULT_CONFIG, ...config };
  // Secrets leave only through these doors, each redacted once: results to hosts (wrapped at the end), requests to
  // endpoints and appends to workspace files (here).
  const redacting = cfg.redactSecrets
    ? { ...(given.http ? { http: redactingHttp(given.http) } : {}), ...(given.writer ? { writer: redactingWriter(given.writer) } : {}) }
    : {};
  // Failed writes (full disk, read-only folder) surface as EngineErrors naming the file, wherever they happen.
  const deps: EngineDeps = { ...given, ...redacting, storage: reportingWriteErrors(given.storage) };
  const lifecycle = createIndexLifecycle(deps, cfg);
  const fresh = createIndexFreshness(deps, lifecycle, queuePolicy);
  const requests = createIndexRequests(fresh.justInTime, lifecycle);
  const navigation = createNavigation(deps);
  const context = createContextService(deps);
  const oracle = createOracleFacade(deps, cfg, { requests, context, navigation });

  const engine: Engine = {
    root: deps.root,
    index: fresh.index,
    status: () => indexStatus({ root: deps.root, storage: deps.storage, readable: lifecycle.readable, damage: lifecycle.damage, stamp: fresh.stamp }),
    async indexState() {
      try {
        await lifecycle.readable();
        return 'ready';
      } catch (e) {
        if (EngineError.is(e, 'not_initialized')) return 'missing';
        if (EngineError.is(e, 'index_corrupt')) return 'unusable';
        throw e;
      }
    },
    exportIndex: () => lifecycle.exportImage(),
    importIndex: async (image, options) => {
      await lifecycle.importImage(image);
      return fresh.index(options);
    },
    foreignRoot: () => lifecycle.foreignRoot(),
    search: (query, options) => requests.within(query, async (r) => searchChunks(await r.db(), query, options)),
    noteChanges: fresh.noteChanges,
    syncNow: fresh.syncNow,
    justInTime: fresh.justInTime,
    freshness: fresh.freshness,
    // -- navigation --
    definitions: (symbol, options) => requests.within(symbol, (r) => navigation.definitions(r, symbol, options)),
    references: (symbol, options) => requests.within(symbol, (r) => navigation.references(r, symbol, options)),
    implementations: (symbol, options) => requests.within(symbol, (r) => navigation.implementations(r, symbol, options)),
    repoMap: (options) => requests.within(undefined, (r) => navigation.repoMap(r, options)),
    repoMapSlice: (files, options) => requests.within(undefined, (r) => navigation.repoMapSlice(r, files, options)),
    // -- graph --
    ...createGraphFacade(deps, lifecycle.readable, cfg),
    // -- context --
    getContextForQuestion: (question, options) => {
      const text = String(question ?? '');
      return requests.within(text, (r) => context.getContextForQuestion(r, analyseQuestion(text), options));
    },
    warm: () => requests.within(undefined, (r) => context.warm(r)),
    // -- oracle --
    ...oracle,
    async dispose() {
      fresh.dispose();
      await lifecycle.close();
      await deps.parser.dispose();
    },
  };
  return cfg.redactSecrets ? redactingEngine(engine) : engine;
}
