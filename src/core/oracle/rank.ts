/**
 * Merge, dedupe, rerank and gate. Relevance is measured the same way for every source (the weighted share of the
 * question's words the candidate holds, weights from all corpora together); the rerank adds what the question kind
 * says matters (the definition for "where is X defined", call sites for "where is X used", history for "what
 * changed", tests for "what should happen"). Nothing passes the gate → the honest "nothing found".
 */
import { classifyPath } from '../context/paths';
import { textTerms } from '../context/terms';
import { namesCodeConstruct } from '../text/code-vocabulary';
import type { TermStats } from './code-retrieval';
import { shortName } from './analyse';
import { coverage, stem, termWeights, vocabulary } from './lexical';
import { isBoilerplate } from './roles';
import type { Candidate } from './sources/source';
import type { QuestionAnalysis, RerankDecision } from './types';

/** The best candidate must hold at least this share of the question's weighted words. */
export const RELEVANCE_CUTOFF = 0.5;
/** Candidates kept besides the best: at least this relevance (and, but for code, at least 60 % of the best's). */
const KEEP_FLOOR = 0.3;
/** Exact lookups of the subject (its definition, its references, the history of its lines) count as this relevant. */
const EXACT_RELEVANCE = 0.85;
export const MAX_EVIDENCE = 12;
/** Most doc sections and notes kept while there is code to cite. */
const MAX_PROSE = MAX_EVIDENCE / 2;
/** Long questions are fully answered by text holding the weight of their heaviest few terms. */
const TOP_TERMS = 5;
/** Relevance kept by a candidate that holds only one of the question's (several) terms. */
const SINGLE_TERM = 0.6;
/** Relevance kept by a candidate that does not name the question's subject. */
const SUBJECT_MISSING = 0.75;
/**
 * Relevance kept, for a question that names no code, by a candidate sharing one word with it and that only as part
 * of a longer name: "life" in `life_clause` does not answer "What is the meaning of life?".
 */
const FRAGMENTS_ONLY = 0.4;

export interface Ranked {
  kept: Candidate[];
  decisions: RerankDecision[];
  best: number;
  hasContext: boolean;
}

/** Relevance weights over every corpus that answered. */
export function combinedWeights(terms: string[], stats: TermStats[], codeNames: string[] = []): ReturnType<typeof termWeights> {
  const df: Record<string, number> = {};
  let docs = 0;
  for (const s of stats) {
    docs += s.docs;
    for (const [t, n] of Object.entries(s.df)) df[t] = (df[t] ?? 0) + n;
  }
  const boost = new Set(codeNames.flatMap((n) => textTerms(n)).filter((t) => terms.includes(t)));
  return termWeights(terms, df, docs, { boost, topTerms: TOP_TERMS });
}

/**
 * A project term is a word the project names things with: a symbol, folder or file named wholly by the question's
 * words. A question with no code-like name and no project term ("What is the meaning of life?") is plain English,
 * whatever one definition or comment says: code alone does not answer it. Undefined when no code corpus answered.
 */
export function hasProjectTerm(stats: TermStats[]): boolean | undefined {
  const named = stats.filter((s) => s.named);
  if (!named.length) return undefined;
  return named.some((s) => s.named!.length > 0);
}

/** Smart context's files whose best candidate is kept whatever its word overlap (R@5 reads the first five). */
const RESERVED_FILES = 8;

export function rankCandidates(all: Candidate[], a: QuestionAnalysis, stats: TermStats[]): Ranked {
  const terms = a.subject ? [...new Set([...a.terms, ...textTerms(a.subject)])] : a.terms;
  const tw = combinedWeights(terms, stats, [...(a.subject ? [a.subject] : []), ...a.entities]);
  const decisions: RerankDecision[] = [];
  // A question about a named symbol is answered by text that names it: sharing only its word parts
  // ("accept", "language" for parseAcceptLanguage) is weaker evidence.
  const subjectKey = a.subject ? stem(shortName(a.subject).toLowerCase()) : undefined;
  const needTerms = Math.min(2, tw.weights.size);
  const namesNoCode = !a.subject && !a.entities.length;
  // "func", "return" or "comments" make a question about code even when it names nothing the project defines.
  const plainEnglish = namesNoCode && hasProjectTerm(stats) === false && !namesCodeConstruct(terms);
  for (const c of all) {
    const words = namesNoCode ? new Set<string>() : undefined;
    const vocab = vocabulary(c.scope, words);
    let measured = coverage(vocab, tw);
    if (subjectKey && subjectKey.length > 3 && !vocab.has(subjectKey)) measured *= SUBJECT_MISSING;
    const held = [...tw.weights.keys()].filter((t) => vocab.has(t));
    // One shared word is a coincidence more often than an answer ("end-of-life" for "the meaning of life").
    if (held.length < needTerms) measured *= SINGLE_TERM;
    // Code names things in compounds (`backoffDelay`), so this applies only when a single word is all it shares.
    if (words && held.length === 1 && !words.has(held[0]!)) measured *= FRAGMENTS_ONLY;
    c.evidence.relevance = round(c.exact ? Math.max(measured, EXACT_RELEVANCE) : measured);
  }
  // Smart context applied its own cut-off: the files it returned answer the question unless the question is plain
  // English (then code cannot answer it, and only docs or notes holding enough of it can).
  const searched = all.filter((c) => c.evidence.method === 'context');
  const rankOf = new Map<string, number>();
  for (const c of searched) if (c.evidence.path && c.fileRank !== undefined) rankOf.set(c.evidence.path, Math.min(c.fileRank, rankOf.get(c.evidence.path) ?? Infinity));
  // For "where is X defined", the file of X's own definition is cited first. Only then, and only the first
  // definition's: elsewhere a name's definition (okhttp's benchmark class `OkHttp` for a question naming OkHttp)
  // must not push out a file retrieval ranked.
  const named = a.kind === 'definition' ? all.find((c) => c.evidence.method === 'definition' && c.evidence.path) : undefined;
  if (named) rankOf.set(named.evidence.path!, -1);
  for (const c of all) {
    if (c.evidence.source !== 'code' || !c.evidence.path || !rankOf.has(c.evidence.path)) continue;
    c.fileRank = rankOf.get(c.evidence.path)!;
    c.evidence.meta = { ...c.evidence.meta, fileRank: String(c.fileRank) };
  }
  const merged = dedupe(all, decisions);
  for (const c of merged) {
    const { score, why } = rerank(c, a);
    decisions.push({ key: c.evidence.key, before: round(c.pathScore), after: score, why: why.join(', ') || 'relevance and path rank' });
    c.evidence.score = score;
  }
  merged.sort((x, y) => y.evidence.score - x.evidence.score || x.evidence.key.localeCompare(y.evidence.key));
  const counted = plainEnglish ? merged.filter((c) => c.evidence.source !== 'code') : merged;
  const best = Math.max(0, ...counted.map((c) => c.evidence.relevance));
  const hasContext = plainEnglish ? best >= RELEVANCE_CUTOFF : best >= RELEVANCE_CUTOFF || searched.length > 0;
  const floor = Math.max(KEEP_FLOOR, best * 0.6);
  const kept = new Set<Candidate>();
  const prose = (c: Candidate): boolean => c.evidence.source === 'docs' || c.evidence.source === 'threads';
  // The best candidate of each of smart context's first files first: the answer keeps what retrieval found, even
  // where a long question (a commit message) shares few words with the code.
  if (hasContext && !plainEnglish) {
    for (let r = -1; r < RESERVED_FILES; r++) {
      const top = merged.find((c) => c.fileRank === r && !c.evidence.meta?.imports) ?? merged.find((c) => c.fileRank === r);
      if (top) kept.add(top);
    }
  }
  // Docs and notes may take half the evidence while there is code to cite: twelve doc sections holding the question's
  // words must not leave out the code that does it.
  const codeLeft = merged.some((c) => c.evidence.source === 'code' && (kept.has(c) || c.evidence.relevance >= KEEP_FLOOR));
  let proseKept = 0;
  for (const c of merged) {
    if (kept.has(c)) continue;
    // Code the code search ranked is kept on the absolute floor alone: a doc section holding more of the question's
    // words must not push out the function that does the work (the answer keeps what retrieval found).
    const bar = c.evidence.source === 'code' ? KEEP_FLOOR : floor;
    const proseFull = prose(c) && codeLeft && proseKept >= MAX_PROSE;
    const codeBarred = plainEnglish && c.evidence.source === 'code';
    const keep = hasContext && !codeBarred && (c.exact || c.evidence.relevance >= bar) && kept.size < MAX_EVIDENCE && !proseFull;
    if (keep) {
      kept.add(c);
      if (prose(c)) proseKept++;
    } else {
      const why = codeBarred ? 'code for a question that names nothing in the project'
        : !hasContext || (!c.exact && c.evidence.relevance < bar) ? `below the relevance cut-off (${c.evidence.relevance} < ${round(hasContext ? bar : RELEVANCE_CUTOFF)})`
          : proseFull ? 'beyond the share of docs and notes' : 'beyond the evidence limit';
      decisions.push({ key: c.evidence.key, before: c.evidence.score, after: 0, why });
    }
  }
  return { kept: merged.filter((c) => kept.has(c)), decisions, best: round(best), hasContext };
}

/** Same key, or the same file with overlapping lines: one candidate, the stronger one, remembering both paths. */
function dedupe(all: Candidate[], decisions: RerankDecision[]): Candidate[] {
  const out: Candidate[] = [];
  const order = [...all].sort((x, y) => strength(y) - strength(x));
  for (const c of order) {
    const twin = out.find((o) => sameEvidence(o, c));
    if (!twin) {
      out.push(c);
      continue;
    }
    const paths = new Set((twin.evidence.meta?.paths ?? twin.evidence.method).split(','));
    paths.add(c.evidence.method);
    twin.evidence.meta = { ...twin.evidence.meta, paths: [...paths].join(',') };
    twin.exact ||= c.exact;
    twin.pathScore = Math.max(twin.pathScore, c.pathScore);
    decisions.push({ key: c.evidence.key, before: round(c.pathScore), after: 0, why: `merged into ${twin.evidence.key} (same place, found by ${c.evidence.method})` });
  }
  return out;
}

function strength(c: Candidate): number {
  return (c.exact ? 1 : 0) + c.evidence.relevance + c.pathScore * 0.1;
}

function sameEvidence(a: Candidate, b: Candidate): boolean {
  if (a.evidence.key === b.evidence.key) return true;
  const x = a.evidence;
  const y = b.evidence;
  if (!x.path || x.path !== y.path || x.line === undefined || y.line === undefined) return false;
  const overlap = Math.min(x.endLine!, y.endLine!) - Math.max(x.line, y.line) + 1;
  if (overlap <= 0) return false;
  // A reference line inside another excerpt is still its own call site unless the excerpts mostly coincide.
  const smaller = Math.min(x.endLine! - x.line + 1, y.endLine! - y.line + 1);
  return overlap / smaller >= 0.6;
}

function rerank(c: Candidate, a: QuestionAnalysis): { score: number; why: string[] } {
  const e = c.evidence;
  const why: string[] = [];
  let score = 0.55 * e.relevance + 0.25 * c.pathScore;
  const add = (delta: number, reason: string): void => {
    score += delta;
    why.push(`${reason} ${delta > 0 ? '+' : ''}${delta}`);
  };
  if (e.method === 'definition') add(a.kind === 'definition' ? 0.35 : 0.15, 'definition of the subject');
  if (e.method === 'references') add(a.kind === 'references' ? 0.3 : 0.05, 'reference to the subject');
  if (e.source === 'git') add(a.kind === 'change' ? (e.method === 'commits' ? 0.15 : 0.25) : -0.1, a.kind === 'change' ? 'history for a change question' : 'history for a question not about change');
  if (e.source === 'docs' && (a.kind === 'conceptual' || a.kind === 'behaviour')) add(0.05, 'docs for a conceptual question');
  if (e.source === 'threads') add(-0.05, 'thread (secondary to code and docs)');
  if (e.source === 'code' && e.path) {
    const cls = classifyPath(e.path);
    if (cls === 'test') add(a.boostTests ? 0.15 : -0.1, a.boostTests ? 'test for a behaviour question' : 'test file');
    else if (cls === 'aux') add(-0.05, 'example, benchmark or vendored code');
  }
  // Templates, changelogs, lock files and generated copies hold the project's words without its behaviour.
  if (e.path && isBoilerplate(e.path) && a.kind !== 'change') add(-0.3, 'template, changelog, lock file or generated copy');
  if (e.meta?.imports) add(-0.15, 'imports only');
  const paths = e.meta?.paths?.split(',').length ?? 1;
  if (paths > 1) add(round(0.05 * (paths - 1)), `found by ${paths} paths`);
  return { score: round(score), why };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
