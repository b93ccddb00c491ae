/**
 * The vector path of smart context. Chunk vectors are computed lazily, on the first question that wants them (never
 * while indexing), keyed by a hash of the embedded text so an unchanged chunk is never embedded twice, quantised to
 * int8, and kept in a state file per endpoint+model so the next process starts warm.
 */
import { createHash } from 'node:crypto';
import type { VectorHit } from '../context/evidence';
import { dbFacts } from '../context/db-facts';
import type { EmbeddingSettings } from '../context/types';
import type { Logger, StateStore } from '../ports';
import { chunkTexts } from '../store/chunk-texts';
import type { IndexDatabase } from '../store/database';
import { embedBatch, type EmbeddingPorts } from './client';
import { cosine, decodeVector, encodeVector, quantise, type QuantisedVector } from './quantize';

export interface VectorIndexPorts extends EmbeddingPorts {
  state?: StateStore;
  logger: Logger;
}

/** Characters of a chunk sent to the endpoint: symbol-sized code fits well inside every model's input limit. */
const EMBED_CHARS = 2000;
const DEFAULT_BATCH = 64;
const DEFAULT_MAX_CHUNKS = 20_000;
/** Chunks returned per question. */
const TOP = 50;

interface ChunkRef {
  id: number;
  fileId: number;
  hash: string;
  text: string;
}

export interface VectorIndex {
  search(db: IndexDatabase, question: string, signal?: AbortSignal): Promise<Map<number, VectorHit>>;
  /** Vectors held in memory (for status and tests). */
  size(): number;
}

const sha = (text: string): string => createHash('sha1').update(text).digest('hex').slice(0, 20);

export function createVectorIndex(settings: EmbeddingSettings, ports: VectorIndexPorts): VectorIndex {
  const stateName = `embeddings-${sha(`${settings.baseUrl}|${settings.model}|${settings.dimensions ?? ''}`)}.json`;
  const vectors = new Map<string, QuantisedVector>();
  const chunkLists = new WeakMap<IndexDatabase, { stamp: string; refs: ChunkRef[] }>();
  let loaded: Promise<void> | undefined;
  let filling: Promise<void> = Promise.resolve();

  async function load(): Promise<void> {
    const text = await ports.state?.read(stateName).catch(() => undefined);
    if (!text) return;
    try {
      const saved = JSON.parse(text) as { model?: string; vectors?: Record<string, string> };
      if (saved.model !== settings.model) return;
      for (const [hash, enc] of Object.entries(saved.vectors ?? {})) {
        const v = decodeVector(enc);
        if (v) vectors.set(hash, v);
      }
    } catch {
      ports.logger.warn(`embeddings cache ${stateName} is unreadable; it will be rebuilt`);
    }
  }

  function chunksOf(db: IndexDatabase): ChunkRef[] {
    const facts = dbFacts(db);
    const stamp = `${facts.files.size}/${String(db.get('SELECT max(id) AS n, count(*) AS c FROM chunks')?.n ?? 0)}/${String(db.get("SELECT value FROM meta WHERE key = 'updated_at'")?.value ?? '')}`;
    const hit = chunkLists.get(db);
    if (hit && hit.stamp === stamp) return hit.refs;
    const rows = db.all('SELECT id, file_id, symbol FROM chunks ORDER BY id').map((r) => ({
      id: Number(r.id), fileId: Number(r.file_id), symbol: r.symbol === null ? '' : String(r.symbol), cls: facts.files.get(Number(r.file_id))?.cls ?? 'source',
    }));
    // Under the cap, source files go first: they are what questions are usually about.
    const rank: Record<string, number> = { source: 0, tooling: 1, aux: 1, test: 2, generated: 3 };
    rows.sort((a, b) => (rank[a.cls] ?? 0) - (rank[b.cls] ?? 0) || a.id - b.id);
    const kept = rows.slice(0, settings.maxChunks ?? DEFAULT_MAX_CHUNKS);
    // Chunk text is rebuilt from the stored file text: only for the chunks kept.
    const texts = chunkTexts(db, kept.map((r) => r.id));
    const refs = kept.map(({ id, fileId, symbol }) => {
      const text = `${facts.files.get(fileId)?.path ?? ''}\n${symbol}\n${(texts.get(id) ?? '').slice(0, EMBED_CHARS)}`;
      return { id, fileId, hash: sha(text), text };
    });
    chunkLists.set(db, { stamp, refs });
    return refs;
  }

  async function embedMissing(refs: ChunkRef[], signal?: AbortSignal): Promise<void> {
    const missing = [...new Map(refs.filter((r) => !vectors.has(r.hash)).map((r) => [r.hash, r.text])).entries()];
    if (!missing.length) return;
    const batch = Math.max(1, settings.batchSize ?? DEFAULT_BATCH);
    ports.logger.info(`embedding ${missing.length} chunks with ${settings.model}`);
    for (let i = 0; i < missing.length; i += batch) {
      const part = missing.slice(i, i + batch);
      const out = await embedBatch(ports, settings, part.map(([, text]) => text), signal);
      part.forEach(([hash], j) => vectors.set(hash, quantise(out[j]!)));
    }
    const live = new Set(refs.map((r) => r.hash));
    const saved: Record<string, string> = {};
    for (const [hash, v] of vectors) if (live.has(hash)) saved[hash] = encodeVector(v);
    await ports.state?.write(stateName, JSON.stringify({ model: settings.model, dimensions: settings.dimensions ?? null, vectors: saved }))
      .catch((e: unknown) => ports.logger.warn(`could not save the embeddings cache: ${e instanceof Error ? e.message : String(e)}`));
  }

  return {
    async search(db, question, signal) {
      loaded ??= load();
      await loaded;
      const refs = chunksOf(db);
      // One fill at a time: concurrent questions wait for the same embeddings instead of requesting them twice.
      filling = filling.catch(() => undefined).then(() => embedMissing(refs, signal));
      await filling;
      const [q] = await embedBatch(ports, settings, [question.slice(0, EMBED_CHARS * 2)], signal);
      const qv = quantise(q!);
      const scored: { ref: ChunkRef; sim: number }[] = [];
      for (const ref of refs) {
        const v = vectors.get(ref.hash);
        if (v) scored.push({ ref, sim: cosine(qv, v) });
      }
      scored.sort((a, b) => b.sim - a.sim || a.ref.id - b.ref.id);
      return new Map(scored.slice(0, TOP).filter((s) => s.sim > 0).map((s) => [s.ref.id, { fileId: s.ref.fileId, similarity: Math.round(s.sim * 10000) / 10000 }]));
    },
    size: () => vectors.size,
  };
}
