/**
 * Lexical relevance shared by every source: how much of the question's weighted vocabulary a piece of evidence
 * holds. Weights are inverse document frequencies, so "meaning" and "life" absent from a project weigh fully and
 * a chunk that shares only the word "get" with the question does not pass the gate.
 */
import { stem, textTerms } from '../context/terms';
import { escapeRegExp } from '../strings';

export { stem } from '../context/terms';

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** Stems per identifier: code repeats its identifiers, so splitting and stemming each once pays. */
const stemsOf = new Map<string, string[]>();
const MAX_MEMO = 100_000;

/**
 * Stemmed identifier-aware vocabulary of a text (identifiers whole and split, as textTerms gives them). With
 * `words`, the stems of its one-part identifiers and plain words are also collected there (`life`, not the `life`
 * of `life_clause`), in the same pass.
 */
export function vocabulary(text: string, words?: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const raw of text.match(IDENTIFIER) ?? []) {
    let stems = stemsOf.get(raw);
    if (!stems) {
      stems = textTerms(raw).map(stem);
      if (stemsOf.size >= MAX_MEMO) stemsOf.clear();
      stemsOf.set(raw, stems);
    }
    for (const st of stems) out.add(st);
    if (words && stems.length === 1 && !/[a-z][A-Z]|[A-Za-z0-9]_+[A-Za-z0-9]/.test(raw)) words.add(stems[0]!);
  }
  return out;
}

export interface TermWeights {
  /** Term → weight (stemmed keys). */
  weights: Map<string, number>;
  total: number;
}

/**
 * IDF weights of the question terms over `docs` documents with document frequencies `df` (unstemmed term keys).
 * A term nothing holds gets the highest weight: the question is about it and nothing answers it.
 */
export function termWeights(terms: string[], df: Record<string, number>, docs: number, options: WeightOptions = {}): TermWeights {
  const n = Math.max(docs, 1);
  const weights = new Map<string, number>();
  for (const t of terms) {
    const key = stem(t);
    const w = Math.log(1 + n / ((df[t] ?? 0) + 1)) * (options.boost?.has(t) ? ENTITY_BOOST : 1);
    weights.set(key, Math.max(weights.get(key) ?? 0, w));
  }
  const sorted = [...weights.values()].sort((a, b) => b - a);
  const counted = options.topTerms ? sorted.slice(0, options.topTerms) : sorted;
  return { weights, total: counted.reduce((a, b) => a + b, 0) };
}

export interface WeightOptions {
  /** Terms that name code in the question (identifiers whole): they weigh more. */
  boost?: Set<string>;
  /**
   * Full coverage means holding as much weight as the question's N heaviest terms: a commit-message-long question
   * is answered by text holding its key words, not by text holding all twenty.
   */
  topTerms?: number;
}

const ENTITY_BOOST = 1.5;

/** Share (0..1) of the weighted question terms the vocabulary holds. */
export function coverage(vocab: Set<string>, tw: TermWeights): number {
  if (tw.total <= 0) return 0;
  let got = 0;
  for (const [term, w] of tw.weights) if (vocab.has(term)) got += w;
  return Math.min(1, got / tw.total);
}

/**
 * Weighted hits of the question terms in one line, for choosing which window of a long chunk to show. A substring
 * test of the stem is enough here (relevance itself is measured on whole identifiers) and costs no tokenising.
 */
export function lineScore(line: string, tw: TermWeights): number {
  let score = 0;
  const lower = line.toLowerCase();
  for (const [term, w] of tw.weights) if (lower.includes(term)) score += w;
  return score;
}

/** True when `line` holds `name` as a whole identifier (not inside a longer one). */
export function holdsIdentifier(line: string, name: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_$])${escapeRegExp(name)}($|[^A-Za-z0-9_$])`).test(line);
}
