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
import { warmFacts, type DbFacts } from './db-facts';
import type { NameIndex } from './name-index';
import { decodeFacts, encodeFacts, FACTS_SIDECAR, type SavedFacts } from './saved-facts';
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
   * The facts with their import links resolved: from those saved beside the index when they are of its version, else
   * read from the index and then saved.
   */
  async function loadFacts(db: IndexDatabase): Promise<DbFacts> {
    const version = indexVersion(db);
    const saved = await readSaved<SavedFacts>(FACTS_SIDECAR, 'serving facts', decodeFacts, version);
    if (saved && indexVersion(db) === version) {
      try {
        const { facts, restored } = warmFacts(db, saved);
        if (restored) deps.logger.debug('warm-up: the serving facts read back from beside the index');
        return facts;
      } catch (e) {
        deps.logger.warn(`warm-up: the saved serving facts do not fit the index, reading the index instead (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    const { facts, toSave } = warmFacts(db);
    await nextTurn();
    facts.imports();
    const parts = indexVersion(db) === version ? toSave() : undefined;
    const bytes = parts && encodeFacts(version, parts);
    if (bytes) await save(FACTS_SIDECAR, 'serving facts', bytes);
    return facts;
  }

  /**
   * Every use of every name: from the pairs saved beside the index when they are of its version, else read from the
   * index and then saved (a failed save only costs the next host the read).
   */
  async function loadUses(db: IndexDatabase, names: NameIndex): Promise<void> {
    const version = indexVersion(db);
    const saved = await readSaved(USES_SIDECAR, 'use table', decodeUses, version);
    if (saved && await names.loadUses(nextTurn, saved)) {
      deps.logger.debug('warm-up: the use table read back from beside the index');
      return;
    }
    if (saved) deps.logger.warn('warm-up: the saved use table does not fit the index, reading the index instead');
    if (!await names.loadUses(nextTurn) || indexVersion(db) !== version) return;
    await save(USES_SIDECAR, 'use table', encodeUses(version, names.usePairs!));
  }

  return {
    async getContextForQuestion(request, question, options = {}) {
      const db = await request.db();
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
        const facts = await loadFacts(db);
        facts.imports();
        await nextTurn();
        void facts.symbolNames;
        await loadUses(db, facts.names);
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
