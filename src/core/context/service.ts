/**
 * The smart-context method of the engine façade: the current index, the vector path when the caller configured an
 * embeddings endpoint (one lazily filled vector index per endpoint and model), and the pipeline in context.ts.
 */
import { createVectorIndex, type VectorIndex } from '../embeddings/vector-index';
import type { EngineDeps } from '../ports';
import type { IndexDatabase } from '../store/database';
import { getContextForQuestion } from './context';
import type { ContextOptions, ContextResult, EmbeddingSettings } from './types';

export interface ContextMethods {
  getContextForQuestion(question: string, options?: ContextOptions): Promise<ContextResult>;
}

/** `beforeAnswer` lets pending changes to files the question names be indexed first (freshness, just in time). */
export function createContextService(deps: EngineDeps, readable: () => Promise<IndexDatabase>, beforeAnswer: (text: string) => Promise<void> = async () => {}): ContextMethods {
  const vectorIndexes = new Map<string, VectorIndex>();
  const vectorIndexFor = (s: EmbeddingSettings): VectorIndex => {
    const key = JSON.stringify([s.baseUrl, s.model, s.dimensions ?? null, s.maxChunks ?? null]);
    let index = vectorIndexes.get(key);
    if (!index) {
      index = createVectorIndex(s, { logger: deps.logger, ...(deps.http ? { http: deps.http } : {}), ...(deps.env ? { env: deps.env } : {}), ...(deps.state ? { state: deps.state } : {}) });
      vectorIndexes.set(key, index);
    }
    return index;
  };
  return {
    async getContextForQuestion(question, options = {}) {
      await beforeAnswer(String(question ?? ''));
      const db = await readable();
      const index = options.embeddings ? vectorIndexFor(options.embeddings) : undefined;
      return getContextForQuestion(db, String(question ?? ''), options, {
        logger: deps.logger, clock: deps.clock, ...(index ? { vectors: (d, q, signal) => index.search(d, q, signal) } : {}),
      });
    },
  };
}
