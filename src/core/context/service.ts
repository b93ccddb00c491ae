/**
 * The smart-context method of the engine façade: the current index, the vector path when the caller configured an
 * embeddings endpoint (one lazily filled vector index per endpoint and model), and the pipeline in context.ts.
 */
import { createVectorIndex, type VectorIndex } from '../embeddings/vector-index';
import type { EngineDeps } from '../ports';
import type { IndexDatabase } from '../store/database';
import type { Question } from '../question/analysis';
import type { IndexRequest } from '../store/index-request';
import { countTokens } from '../tokens';
import { getContextForQuestion } from './context';
import { warmFacts, type DbFacts, type WarmFacts } from './db-facts';
import type { NameIndex } from './name-index';
import { decodeFacts, encodeFacts, FACTS_SIDECAR, type FactsOfVersion } from './saved-facts';
import { decodeUses, encodeUses, USES_SIDECAR } from './saved-uses';
import { indexVersion } from '../store/index-version';
import type { ContextOptions, ContextResult, EmbeddingSettings } from './types';

/** Each method reads the index of the request it serves (see store/index-request.ts). */
export interface ContextMethods {
  /** Smart context for a question its request analysed (question/analysis.ts). */
  getContextForQuestion(request: IndexRequest, question: Question, options?: ContextOptions): Promise<ContextResult>;
  /**
   * Loads what every question needs (the index's facts, import links, names in order and every name's uses, the
   * tokenizer) ahead of the first one, which otherwise pays for it (~0.9 s at 10k files). For long-running hosts, once the index is ready;
   * with no usable index it does nothing. Never rejects: a failure is logged.
   */
  warm(request: IndexRequest): Promise<void>;
}

/** Lets other work (a request that arrived meanwhile) run between the steps of a long warm-up. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export function createContextService(deps: EngineDeps): ContextMethods {
  const vectorIndexes = new Map<string, VectorIndex>();
  const vectorIndexFor = (s: EmbeddingSettings): VectorIndex => {
    const key = JSON.stringify([s.baseUrl, s.model, s.dimensions ?? null, s.maxChunks ?? null]);
    let index = vectorIndexes.get(key);
    if (!index) {
      index = createVectorIndex(s, { logger: deps.logger, ...(deps.http ? { http: deps.http } : {}), ...(deps.env ? { env: deps.env } : {}), ...(deps.cache ? { state: deps.cache } : {}) });
      vectorIndexes.set(key, index);
    }
    return index;
  };
  /** A sidecar's bytes decoded for `version`; undefined when absent, of another version, or unreadable (logged). */
  async function readSaved<T>(name: string, what: string, decode: (bytes: Uint8Array, version: string) => T | undefined, version: string): Promise<T | undefined> {
    return deps.storage.readSidecar(name).then((bytes) => (bytes ? decode(bytes, version) : undefined)).catch((e: unknown) => {
      deps.logger.warn(`warm-up: the saved ${what} is unreadable, reading the index instead (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    });
  }

  /** Saves a sidecar; a failed save only costs the next host the read. */
  async function save(name: string, what: string, parts: Uint8Array[]): Promise<void> {
    await deps.storage.writeSidecar(name, parts).catch((e: unknown) => {
      deps.logger.debug(`warm-up: could not save the ${what} beside the index (${e instanceof Error ? e.message : String(e)})`);
    });
  }

  /**
   * The facts with their import links resolved: from those saved beside the index when they are of its version, or of
   * an earlier version of it brought up to date (db-facts.ts warmFacts), else read from the index; saved for its
   * version unless they were read back as they are. `restored` says what the use table saved with them needs.
   */
  async function loadFacts(db: IndexDatabase): Promise<{ facts: DbFacts; restored?: WarmFacts['restored'] & { to: string } }> {
    const version = indexVersion(db);
    const saved = await readSaved<FactsOfVersion>(FACTS_SIDECAR, 'serving facts', decodeFacts, version);
    let warmed: WarmFacts | undefined;
    if (saved && indexVersion(db) === version) {
      try {
        warmed = warmFacts(db, saved);
      } catch (e) {
        deps.logger.warn(`warm-up: the saved serving facts do not fit the index, reading the index instead (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    warmed ??= warmFacts(db);
    const { facts, restored, toSave } = warmed;
    if (restored?.version === version) deps.logger.debug('warm-up: the serving facts read back from beside the index');
    else if (restored) deps.logger.debug(`warm-up: the serving facts saved for ${restored.version} brought up to ${version}, ${restored.changed.size} files read again`);
    await nextTurn();
    facts.imports();
    const parts = indexVersion(db) === version ? toSave() : undefined;
    const bytes = parts && encodeFacts(version, parts);
    if (bytes) await save(FACTS_SIDECAR, 'serving facts', bytes);
    return { facts, ...(restored ? { restored: { ...restored, to: version } } : {}) };
  }

  /** Each database's facts loaded once (loadFacts), by whichever of the warm-up and a question comes first. */
  const factsLoads = new WeakMap<IndexDatabase, ReturnType<typeof loadFacts>>();
  function factsFor(db: IndexDatabase): ReturnType<typeof loadFacts> {
    let loading = factsLoads.get(db);
    if (!loading) {
      loading = loadFacts(db);
      factsLoads.set(db, loading);
      // A load that failed is tried again by the next caller.
      loading.catch(() => factsLoads.delete(db));
    }
    return loading;
  }

  /**
   * Every use of every name: from the pairs saved beside the index when they are of its version, or of the earlier
   * version the facts were brought up from (`restored`: then the pairs of the files read again are read again too),
   * else read from the index; saved for its version unless they were read back as they are.
   */
  async function loadUses(db: IndexDatabase, names: NameIndex, restored?: { version: string; changed: ReadonlySet<number>; to: string }): Promise<void> {
    const version = indexVersion(db);
    const saved = await readSaved(USES_SIDECAR, 'use table', decodeUses, version);
    // The files changed since the saved version, when known: the facts' patch found them, for the version it reached.
    const changed = saved?.version === version ? new Set<number>() : restored && restored.to === version && restored.version === saved?.version ? restored.changed : undefined;
    if (saved && changed && indexVersion(db) === version) {
      if (await names.loadUses(nextTurn, saved.pairs, changed)) {
        if (saved.version === version) {
          deps.logger.debug('warm-up: the use table read back from beside the index');
          return;
        }
        deps.logger.debug(`warm-up: the use table saved for ${saved.version} brought up to ${version}`);
        await save(USES_SIDECAR, 'use table', encodeUses(version, names.usePairs!));
        return;
      }
      deps.logger.warn('warm-up: the saved use table does not fit the index, reading the index instead');
    }
    if (!await names.loadUses(nextTurn) || indexVersion(db) !== version) return;
    await save(USES_SIDECAR, 'use table', encodeUses(version, names.usePairs!));
  }

  return {
    async getContextForQuestion(request, question, options = {}) {
      const db = await request.db();
      // A question that finds no facts held (the CLI's one question, or one asked before the warm-up) loads them as
      // the warm-up does: from those saved beside the index, and saves them when it made them. At 124k files the
      // CLI's `context` read the index's facts for 8 of its 15 CPU-s on every call. A failure is the question's to
      // report, as its own read of the index meets it again.
      await factsFor(db).catch(() => undefined);
      const index = options.embeddings ? vectorIndexFor(options.embeddings) : undefined;
      return getContextForQuestion(db, question, options, {
        logger: deps.logger, clock: deps.clock, ...(index ? { vectors: (d, q, signal) => index.search(d, q, signal) } : {}),
      });
    },
    async warm(request) {
      let db: IndexDatabase;
      try {
        db = await request.db();
      } catch (e) {
        deps.logger.debug(`warm-up skipped: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      try {
        const started = deps.clock.now();
        const { facts, restored } = await factsFor(db);
        facts.imports();
        await nextTurn();
        void facts.symbolNames;
        await loadUses(db, facts.names, restored);
        await nextTurn();
        countTokens('warm');
        deps.logger.debug(`warm-up: ${facts.files.size} files ready for questions in ${deps.clock.now() - started} ms`);
      } catch (e) {
        // Only a head start: the first question loads the same facts and reports what is wrong.
        deps.logger.warn(`warm-up failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
  };
}
