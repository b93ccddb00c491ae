/**
 * Okapi BM25 over FTS4's matchinfo('pcnalx') blob, registered as the SQL function bm25(matchinfo, w0, w1, …).
 * Higher is better. Layout (32-bit unsigned ints): p phrases, c columns, n rows, a[c] average tokens per column,
 * l[c] tokens in this row's columns, then x[p][c][3] = (hits in this row, hits in all rows, rows with a hit).
 */
const K1 = 1.2;
const B = 0.75;

export function bm25(matchinfo: Uint8Array, weights: readonly number[]): number {
  const info = new Uint32Array(matchinfo.buffer, matchinfo.byteOffset, matchinfo.byteLength >>> 2);
  const p = info[0]!;
  const c = info[1]!;
  const n = info[2]!;
  const avgOffset = 3;
  const lenOffset = avgOffset + c;
  const xOffset = lenOffset + c;
  let score = 0;
  for (let phrase = 0; phrase < p; phrase++) {
    for (let col = 0; col < c; col++) {
      const x = xOffset + 3 * (phrase * c + col);
      const hitsHere = info[x]!;
      if (hitsHere === 0) continue;
      const docsWithHit = info[x + 2]!;
      const idf = Math.log(1 + (n - docsWithHit + 0.5) / (docsWithHit + 0.5));
      const avg = info[avgOffset + col]! || 1;
      const len = info[lenOffset + col]!;
      const tf = (hitsHere * (K1 + 1)) / (hitsHere + K1 * (1 - B + (B * len) / avg));
      score += (weights[col] ?? 1) * idf * tf;
    }
  }
  return score;
}
