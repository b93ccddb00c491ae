/**
 * Okapi BM25 of one chunk for a full-text query, from the counts FTS4's matchinfo('pcnalx') gave and the postings
 * give now (postings.ts): per query term and column, the chunk's hits and the number of chunks with a hit; the
 * chunk's length per column; the chunks ever indexed and the average lengths. Higher is better.
 */
const K1 = 1.2;
const B = 0.75;

export interface Bm25Corpus {
  /** Chunks in the index, removed ones still held included (FTS4's 'n'). */
  docs: number;
  /** Average tokens per column (FTS4's 'a'). */
  avg: readonly number[];
  /** Per term and column (3 slots a term): chunks with a hit. */
  docsWithHit: Uint32Array;
}

/** `hits`: per term and column (3 slots a term, from `at`) the chunk's hits; `len`: its tokens per column. */
export function bm25(corpus: Bm25Corpus, hits: Uint32Array, at: number, terms: number, len: readonly number[], weights: readonly number[]): number {
  let score = 0;
  for (let phrase = 0; phrase < terms; phrase++) {
    for (let col = 0; col < 3; col++) {
      const hitsHere = hits[at + 3 * phrase + col]!;
      if (hitsHere === 0) continue;
      const docsWithHit = corpus.docsWithHit[3 * phrase + col]!;
      const idf = Math.log(1 + (corpus.docs - docsWithHit + 0.5) / (docsWithHit + 0.5));
      const avg = corpus.avg[col]! || 1;
      const tf = (hitsHere * (K1 + 1)) / (hitsHere + K1 * (1 - B + (B * len[col]!) / avg));
      score += (weights[col] ?? 1) * idf * tf;
    }
  }
  return score;
}
