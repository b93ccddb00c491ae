/**
 * A file's chunk bodies as the full-text postings count them, made on the parse workers: the indexing thread, which
 * writes every batch alone, then only appends counts (store/postings-writer.ts addCounted) instead of scanning the
 * text token by token, and no body text crosses between threads.
 */
import { foldToken, scanTokens } from '../store/tokenize';
import { TermTable } from '../store/term-table';

/** The tokens of each chunk's body (in chunk order), with how often each occurs. Plain data: it crosses threads. */
export interface SearchTerms {
  /** The file's distinct body tokens, folded as the tokenizer folds them, in the order they first occur. */
  terms: string[];
  /**
   * Per chunk in order: n, its count of distinct tokens, then n pairs (index in `terms`, occurrences), the tokens in
   * the order they first occur in the chunk.
   */
  hits: Uint32Array;
}

class FileTerm {
  /** The chunk last counted in, and how often the term occurred there. */
  chunk = -1;
  count = 0;
  constructor(readonly text: string, readonly hash: number, readonly index: number) {}
}

/** The search terms of chunk bodies `bodies` (each a chunk's search text: parse/identifiers.ts searchableText). */
export function searchTerms(bodies: readonly string[]): SearchTerms {
  const table = new TermTable((text, hash, index) => new FileTerm(text, hash, index));
  const hits: number[] = [];
  const touched: FileTerm[] = [];
  for (const [chunk, body] of bodies.entries()) {
    scanTokens(body, (start, end, upper) => {
      let term: FileTerm;
      if (upper) {
        const folded = foldToken(body.slice(start, end));
        term = table.get(folded, 0, folded.length);
      } else {
        term = table.get(body, start, end);
      }
      if (term.chunk !== chunk) {
        term.chunk = chunk;
        term.count = 0;
        touched.push(term);
      }
      term.count++;
    });
    hits.push(touched.length);
    for (const term of touched) hits.push(term.index, term.count);
    touched.length = 0;
  }
  return { terms: table.list.map((t) => t.text), hits: Uint32Array.from(hits) };
}

/** The chunks `search` counts. */
export function chunkCount(search: SearchTerms): number {
  let chunks = 0;
  for (let at = 0; at < search.hits.length; at += 1 + 2 * search.hits[at]!) chunks++;
  return chunks;
}

/** What `search` holds in memory, roughly: its counts and its terms' characters. */
export function searchBytes(search: SearchTerms): number {
  let bytes = search.hits.byteLength;
  for (const term of search.terms) bytes += 2 * term.length;
  return bytes;
}
