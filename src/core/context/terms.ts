/**
 * Question words for full-text retrieval, tokenised the way the index is (identifiers whole and split, lower-cased)
 * with English function words dropped: questions are prose, and "should", "when" or "because" only add noise.
 */
import { splitIdentifier } from '../parse/identifiers';
import type { TermQuery } from '../store/postings';
import { isStopword } from '../text/stopwords';

/** Most terms a query sends to the full-text index; long commit-style questions keep their first words. */
export const MAX_QUERY_TERMS = 32;

/** Identifier-aware terms of `text`: each compound identifier whole and its parts; stopwords and numbers dropped. */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []) {
    if (raw.length > 64) continue;
    const parts = splitIdentifier(raw);
    if (parts.length > 1) {
      const whole = raw.replace(/\$/g, '').toLowerCase().replace(/^_+|_+$/g, '');
      if (whole.length >= 2) out.push(whole);
    }
    for (const p of parts) {
      if (p.length < 2 || /^[0-9]+$/.test(p) || isStopword(p)) continue;
      out.push(p);
    }
  }
  return out;
}

export interface WeightedTerms {
  terms: string[];
  /** Per term: how much it counts (words of the question's first line count more). */
  weights: number[];
}

/** Weight of a first-line word: a question's (or commit message's) first line states the topic, the rest details it. */
export const HEAD_WEIGHT = 1.3;

/** Distinct query terms in order of first appearance, capped at MAX_QUERY_TERMS, first-line words weighted up. */
export function questionTerms(question: string): WeightedTerms {
  const trimmed = question.trim();
  const nl = trimmed.indexOf('\n');
  const head = new Set(textTerms(nl < 0 ? trimmed : trimmed.slice(0, nl)));
  const terms = [...new Set(textTerms(trimmed))].slice(0, MAX_QUERY_TERMS);
  // A one-line question has no detail to weigh against: every word is the topic.
  const weights = terms.map((t) => (nl >= 0 && head.has(t) ? HEAD_WEIGHT : 1));
  return { terms, weights };
}

/**
 * Terms of a workspace path: folder names and the file's stem, split like identifiers (extension dropped). `folders`
 * keeps each folder name's terms for the next path (a caller reading every path of a large index: names repeat).
 */
export function pathTerms(path: string, folders?: Map<string, string[]>): { dirs: string[]; stem: string[] } {
  const segments = path.split('/');
  const file = segments.pop() ?? '';
  const stem = file.replace(/\.[^.]*$/, '').replace(/\.(d|test|spec)$/, '');
  const folderTerms = (s: string): string[] => {
    let terms = folders?.get(s);
    if (!terms) {
      terms = textTerms(s.replace(/[-.]/g, '_'));
      folders?.set(s, terms);
    }
    return terms;
  };
  return { dirs: [...new Set(segments.flatMap(folderTerms))], stem: [...new Set(textTerms(stem.replace(/[-.]/g, '_')))] };
}

/** A light stemmer: plural and verb endings off so `formatted`, `formats` and `format` meet. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 4 && /(ies|ied)$/.test(w)) w = `${w.slice(0, -3)}y`;
  else {
    for (const suffix of ['ing', 'ed', 'es', 's']) {
      if (w.length - suffix.length >= 3 && w.endsWith(suffix) && !w.endsWith('ss')) {
        w = w.slice(0, -suffix.length);
        break;
      }
    }
  }
  // delivery / deliver, retry / retried: a final y after a consonant goes too.
  if (w.length > 4 && /[^aeiou]y$/.test(w)) w = w.slice(0, -1);
  // formatt → format, runn → run
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[aeiouls]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  return w;
}

/**
 * The full-text form of a query term: a prefix query on its stem when the word is inflected (`retried` → `retr*`
 * finds `retry` and `deliverWithRetry`; `deliveries` → `deliver*`), the exact word otherwise. Short stems stay
 * exact, or `used` would match everything starting with `us`.
 */
export function termQuery(term: string): TermQuery {
  const clean = term.replace(/"/g, '');
  const s = stem(clean);
  return s !== clean && s.length >= 4 && /^[a-z0-9]+$/.test(s) ? { text: s, prefix: true } : { text: clean };
}
