/**
 * The deterministic reranker: every candidate file gets a vector of signals in 0..1 and a weighted sum, then graph
 * proximity to the strongest files is added and tests/examples/copies are ranked down unless the question is about
 * them. Pure over the evidence: the same evidence and weights always give the same order.
 */
import { widened } from './int-column';
import { PATH_CLASSES } from './paths';
import type { Evidence } from './evidence';
import type { SymbolMatch } from './symbol-match';
import type { FileScores } from './text-retrieval';
import { topSlots } from './top-slots';
import type { ContextWeights, RankedFile, SignalScores } from './types';

/** Factors for files that are rarely where behaviour lives. */
export interface ClassFactors {
  test: number;
  testWhenAsked: number;
  aux: number;
  generated: number;
  tooling: number;
}

export const DEFAULT_CLASS_FACTORS: ClassFactors = { test: 0.25, testWhenAsked: 0.8, aux: 0.4, generated: 0.2, tooling: 0.7 };
/**
 * Entity weight for "where is X defined?" questions: the definition is the answer, so a named symbol outweighs all
 * the text signals together (never less than the configured entity weight).
 */
const LOCATE_ENTITY_WEIGHT = 3;
/** Entity quality of a file the question names by its path. */
const PATH_MENTION_QUALITY = 0.8;
/** Proximity kept per extra hop through the graph. */
const HOP_DECAY = 0.25;
/** Strongest files whose neighbours get proximity. */
const PROXIMITY_SOURCES = 8;

export interface ScoredFile extends RankedFile {
  fileId: number;
  /** 0..1: the strongest absolute evidence (named symbol, share of the question's vocabulary). */
  relevance: number;
}

export const zeroSignals = (): SignalScores => ({ entity: 0, vector: 0, proximity: 0, bm25File: 0, bm25Chunk: 0, focus: 0, path: 0, mentionRef: 0, coverage: 0 });
/**
 * A file's signals while scoring, by slot in zeroSignals' order: written into one Float64Array, not an object, since
 * every score stored in an object field was a new boxed number, tens of thousands of files a question.
 */
const enum Sig { Entity, Vector, Proximity, Bm25File, Bm25Chunk, Focus, Path, MentionRef, Coverage, Count }

/**
 * Every candidate file scored, in columns by slot (at 100k files a question has tens of thousands of candidates:
 * an object with its signals per candidate, then a sort of all of them, was a quarter of a question). Rows are built
 * only for the files listed: all of them for `rankFiles`, the head of the cut-off list for `rankedHead`.
 */
class Candidates {
  /** Candidates in slots 0 … count - 1; the columns below grow by doubling (pushing into arrays of numbers did). */
  count = 0;
  ids: Int32Array;
  base: Float64Array;
  proximity: Float64Array;
  /** 1 when the file came in only through the graph (its other signals stay 0, as they were never looked at). */
  reachedOnly: Uint8Array;
  /** 0..1, the strongest absolute evidence (ScoredFile.relevance). */
  relevance: Float64Array;
  vector: Float64Array;
  /** The file's class factor. */
  factor: Float64Array;
  /** Unrounded final score; a file lists when it is above 0. */
  score: Float64Array = new Float64Array(0);
  /** Slot plus one by file id (0: not a candidate); a Map of tens of thousands cost more than the scoring. */
  private slotOf: Int32Array;

  constructor(
    private readonly ev: Evidence,
    readonly signalsOf: (id: number, place: number, into: Float64Array) => void,
    private readonly matchesOf: Map<number, SymbolMatch[]>,
  ) {
    this.slotOf = new Int32Array(ev.facts.fileColumns().relLength.length);
    const n = ev.text.files.size + 64;
    this.ids = new Int32Array(n);
    this.base = new Float64Array(n);
    this.proximity = new Float64Array(n);
    this.reachedOnly = new Uint8Array(n);
    this.relevance = new Float64Array(n);
    this.vector = new Float64Array(n);
    this.factor = new Float64Array(n);
  }

  slot(id: number): number | undefined {
    const at = id >= 0 && id < this.slotOf.length ? this.slotOf[id]! - 1 : -1;
    return at >= 0 ? at : undefined;
  }

  add(id: number, base: number, relevance: number, vector: number, factor: number, reachedOnly: number): number {
    const at = this.count++;
    if (id >= this.slotOf.length) {
      const grown = new Int32Array(id + 1);
      grown.set(this.slotOf);
      this.slotOf = grown;
    }
    if (at === this.ids.length) this.grow(2 * at);
    this.slotOf[id] = at + 1;
    this.ids[at] = id;
    this.base[at] = base;
    this.proximity[at] = 0;
    this.reachedOnly[at] = reachedOnly;
    this.relevance[at] = relevance;
    this.vector[at] = vector;
    this.factor[at] = factor;
    return at;
  }

  private grow(n: number): void {
    this.ids = widened(this.ids, n);
    this.base = widened(this.base, n);
    this.proximity = widened(this.proximity, n);
    this.reachedOnly = widened(this.reachedOnly, n);
    this.relevance = widened(this.relevance, n);
    this.vector = widened(this.vector, n);
    this.factor = widened(this.factor, n);
  }

  /** The listed row of a slot, signals rounded. */
  row(at: number): ScoredFile {
    const id = this.ids[at]!;
    const fact = this.ev.facts.files.get(id)!;
    const signals = new Float64Array(Sig.Count);
    if (!this.reachedOnly[at]) this.signalsOf(id, this.ev.text.files.placeOf(id), signals);
    signals[Sig.Proximity] = this.proximity[at]!;
    return {
      fileId: id, path: fact.path, line: lineOf(this.ev, this.matchesOf.get(id)?.[0], id), score: round(this.score[at]!), signals: roundSignals(signals),
      relevance: this.relevance[at]!,
    };
  }
}

function scoreCandidates(ev: Evidence, weights: ContextWeights, factors: ClassFactors): Candidates {
  const vecByFile = new Map<number, number>();
  if (ev.vectors) for (const { fileId, similarity } of ev.vectors.values()) vecByFile.set(fileId, Math.max(vecByFile.get(fileId) ?? 0, similarity));

  const texts = ev.text.files;
  const { maxFile, maxChunk } = textMaxima(texts);
  let maxVec = 0;
  for (const v of vecByFile.values()) maxVec = Math.max(maxVec, v);
  const pathScore = pathScorer(ev);

  // Each file's named-symbol matches, in match order (thousands of candidate files each scanned every match).
  const matchesOf = new Map<number, SymbolMatch[]>();
  for (const m of ev.matches) {
    const list = matchesOf.get(m.fileId);
    if (list) list.push(m);
    else matchesOf.set(m.fileId, [m]);
  }

  // Most questions name no path, match no symbol in most files and run without vectors: the maps are looked up only
  // when they hold something (a lookup each, per candidate of tens of thousands, added up).
  const mentioned = ev.pathMentions.size > 0;
  const named = matchesOf.size > 0;
  const referencing = ev.mentionRefs.size > 0;
  const withVectors = vecByFile.size > 0;
  /**
   * The signals but proximity of file `id` (at `place` among the text matches, -1 when none), written into `s` by
   * Sig slot: one formula for the scoring pass and the listed rows.
   */
  const signalsOf = (id: number, place: number, s: Float64Array): void => {
    const t = place >= 0;
    s[Sig.Bm25File] = t && maxFile ? texts.bm25[place]! / maxFile : 0;
    s[Sig.Bm25Chunk] = t && maxChunk ? texts.chunkAgg(place) / maxChunk : 0;
    s[Sig.Coverage] = t ? texts.coverage[place]! : 0;
    s[Sig.Focus] = t ? texts.focus[place]! : 0;
    // A file the question names by path or module path counts like a named symbol.
    const byPath = mentioned && ev.pathMentions.has(id);
    let miss = byPath ? 1 - PATH_MENTION_QUALITY : 1;
    const matches = named ? matchesOf.get(id) : undefined;
    if (matches) for (const m of matches) miss *= 1 - m.quality;
    s[Sig.Entity] = 1 - miss;
    s[Sig.MentionRef] = referencing ? (ev.mentionRefs.get(id) ?? 0) : 0;
    s[Sig.Path] = byPath ? 1 : pathScore(id);
    s[Sig.Vector] = maxVec ? (vecByFile.get(id) ?? 0) / maxVec : 0;
    s[Sig.Proximity] = 0;
  };

  const answerInTests = testsDefiningOnly(ev);
  // A file's class from the facts' array by id (a Map lookup per candidate of 124k files cost more than scoring it).
  const { cls } = ev.facts.fileColumns();
  const factorOf = (id: number, code: number): number => {
    const testAsked = ev.aboutTests || answerInTests.has(id);
    const c = PATH_CLASSES[code - 1]!;
    return c === 'source' ? 1 : c === 'test' ? (testAsked ? factors.testWhenAsked : factors.test) : factors[c];
  };
  const classOf = (id: number): number => (id >= 0 && id < cls.length ? cls[id]! : 0);
  const entityW = ev.locate ? Math.max(weights.entity, LOCATE_ENTITY_WEIGHT) : weights.entity;
  const c = new Candidates(ev, signalsOf, matchesOf);
  const s = new Float64Array(Sig.Count);
  const score = (id: number, place: number): void => {
    const code = classOf(id);
    if (!code) return;
    signalsOf(id, place, s);
    const base = entityW * s[Sig.Entity]! + weights.bm25File * s[Sig.Bm25File]! + weights.bm25Chunk * s[Sig.Bm25Chunk]! + weights.coverage * s[Sig.Coverage]!
      + weights.focus * s[Sig.Focus]! + weights.path * s[Sig.Path]! + weights.mentionRef * s[Sig.MentionRef]! + weights.vector * s[Sig.Vector]!;
    const relevance = Math.max(s[Sig.Entity]!, s[Sig.Coverage]!, mentioned && ev.pathMentions.has(id) ? 1 : 0, vectorRelevance(withVectors ? (vecByFile.get(id) ?? 0) : 0));
    c.add(id, base, relevance, s[Sig.Vector]!, factorOf(id, code), 0);
  };
  // Text files first, then the other paths' files not already in, each once (slots in this order).
  for (let place = 0; place < texts.size; place++) score(texts.ids[place]!, place);
  const others = (id: number): void => {
    if (c.slot(id) === undefined) score(id, -1);
  };
  for (const id of ev.mentionRefs.keys()) others(id);
  for (const id of ev.pathMentions) others(id);
  for (const m of ev.matches) others(m.fileId);
  for (const id of vecByFile.keys()) others(id);

  // Proximity: neighbours of the strongest files, scaled by how strong the source is and decayed per hop (the
  // second hop goes through neighbours whose own edges were looked up).
  const strongest = [...ev.edges.keys()].flatMap((id) => { const at = c.slot(id); return at === undefined ? [] : [[id, c.base[at]!] as const]; })
    .sort((a, b) => b[1] - a[1] || ev.facts.pathRank(a[0]) - ev.facts.pathRank(b[0])).slice(0, PROXIMITY_SOURCES);
  const top = strongest[0]?.[1] ?? 0;
  const reach = (target: number, prox: number): void => {
    let at = c.slot(target);
    if (at === undefined) {
      const code = classOf(target);
      if (!code) return;
      at = c.add(target, 0, 0, 0, factorOf(target, code), 1);
    }
    c.proximity[at] = Math.max(c.proximity[at]!, prox);
  };
  if (top > 0) {
    for (const [sourceId, base] of strongest) {
      for (const [target, strength] of ev.edges.get(sourceId) ?? []) {
        const prox = (base / top) * strength;
        reach(target, prox);
        for (const [second, s2] of ev.edges.get(target) ?? []) if (second !== sourceId) reach(second, prox * s2 * HOP_DECAY);
      }
    }
  }

  c.score = new Float64Array(c.count);
  for (let at = 0; at < c.count; at++) c.score[at] = (c.base[at]! + weights.proximity * c.proximity[at]!) * c.factor[at]!;
  return c;
}

/** Every file with a score above 0, best first; ties by path as localeCompare orders them. */
export function rankFiles(ev: Evidence, weights: ContextWeights, factors: ClassFactors = DEFAULT_CLASS_FACTORS): ScoredFile[] {
  const c = scoreCandidates(ev, weights, factors);
  const listed: number[] = [];
  for (let at = 0; at < c.count; at++) if (c.score[at]! > 0) listed.push(at);
  // Through the precomputed path ranks, each looked up once, not twice per comparison: thousands of low-scoring
  // files tie in a large workspace.
  const rank = Float64Array.from(listed, (at) => ev.facts.pathRank(c.ids[at]!));
  const score = Float64Array.from(listed, (at) => round(c.score[at]!));
  const order = listed.map((_, i) => i).sort((a, b) => score[b]! - score[a]! || rank[a]! - rank[b]!);
  return order.map((i) => c.row(listed[i]!));
}

export interface RankedHead {
  /** The first `limit` files that pass the cut-off, in rankFiles' order. */
  files: ScoredFile[];
  /** As applyCutoff's. */
  relevant: boolean;
  /** Files rankFiles would list (before excluding tests). */
  expanded: number;
}

/**
 * `applyCutoff(rankFiles(…))`, tests left out when asked, cut to its first `limit` files, without building or
 * sorting the rest: a question lists a hundred files of tens of thousands of candidates.
 */
export function rankedHead(
  ev: Evidence, weights: ContextWeights, opts: { minRelevance: number; limit: number; excludeTests?: boolean }, factors: ClassFactors = DEFAULT_CLASS_FACTORS,
): RankedHead {
  const c = scoreCandidates(ev, weights, factors);
  const { cls } = ev.facts.fileColumns();
  let expanded = 0;
  let relevant = false;
  // Pass the cut-off and the test filter: slots, then their rounded scores and path ranks, kept best first.
  const passing: number[] = [];
  for (let at = 0; at < c.count; at++) {
    if (!(c.score[at]! > 0)) continue;
    expanded++;
    if (opts.excludeTests && PATH_CLASSES[cls[c.ids[at]!]! - 1] === 'test') continue;
    const relevance = c.relevance[at]!;
    if (relevance >= opts.minRelevance) relevant = true;
    if (keptByCutoff(relevance, round(c.proximity[at]!), round(c.vector[at]!), opts.minRelevance)) passing.push(at);
  }
  if (!relevant) return { files: [], relevant, expanded };
  const rounded = new Float64Array(c.count);
  for (const at of passing) rounded[at] = round(c.score[at]!);
  const head = topSlots(passing, opts.limit, rounded, (at) => ev.facts.pathRank(c.ids[at]!));
  return { files: head.map((at) => c.row(at)), relevant, expanded };
}

/**
 * The test files that define the subject of a definition question ("where is X defined?") by its exact name, when
 * no other file does: there the test is the answer, not a test to rank down (a helper class declared in a test).
 */
function testsDefiningOnly(ev: Evidence): Set<number> {
  if (!ev.locate) return new Set();
  const subjects = new Set(ev.entities.filter((e) => e.subject).map((e) => e.text));
  const defining = ev.matches.filter((m) => subjects.has(m.entity) && (m.how === 'exact' || m.how === 'qualified')).map((m) => m.fileId);
  return defining.length && defining.every((id) => ev.facts.files.get(id)?.cls === 'test') ? new Set(defining) : new Set();
}

/**
 * Cosine similarity as absolute evidence. Embedding models put unrelated text at about 0.1–0.2 and related text
 * from about 0.3 up, so 0.2 maps to nothing and 0.5 to full relevance.
 */
function vectorRelevance(similarity: number): number {
  return Math.min(1, Math.max(0, (similarity - 0.2) / 0.3));
}

/**
 * Question words in the file's name (full weight) or folders (half), weighted by how few paths hold them. Scores by
 * file id in an array: a Set of holders and a Map of scores, tens of thousands of files for a common folder word,
 * were a tenth of the ranking at 100k files.
 */
function pathScorer(ev: Evidence): (id: number) => number {
  const n = Math.max(ev.facts.files.size, 1);
  const wanted = new Map<string, number>();
  // Only files whose path holds a question word can score: found through the index's term → files map, not a scan.
  const holders: ReadonlySet<number>[] = [];
  for (const t of ev.text.terms) {
    const files = ev.facts.pathFiles.get(t);
    if (!files?.size) continue;
    wanted.set(t, Math.log(1 + n / files.size));
    holders.push(files);
  }
  const raw = new Float64Array(ev.facts.fileColumns().relLength.length);
  let max = 0;
  for (const files of holders) {
    for (const id of files) {
      if (raw[id]) continue;
      const f = ev.facts.files.get(id)!;
      let s = 0;
      for (const t of f.stemTerms) s += wanted.get(t) ?? 0;
      for (const t of f.dirTerms) s += 0.5 * (wanted.get(t) ?? 0);
      if (s > 0) {
        raw[id] = s;
        max = Math.max(max, s);
      }
    }
  }
  return (id) => (max && id >= 0 && id < raw.length ? raw[id]! / max : 0);
}

/** The line a file is cited at: a named definition's name line, else the best-matching chunk's first line. */
function lineOf(ev: Evidence, named: SymbolMatch | undefined, id: number): number {
  if (named) return named.nameLine;
  return ev.text.files.get(id)?.bestLine || 1;
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
/** Every signal (by Sig slot) rounded, keys in zeroSignals' order. */
function roundSignals(s: Float64Array): SignalScores {
  return {
    entity: round(s[Sig.Entity]!), vector: round(s[Sig.Vector]!), proximity: round(s[Sig.Proximity]!), bm25File: round(s[Sig.Bm25File]!),
    bm25Chunk: round(s[Sig.Bm25Chunk]!), focus: round(s[Sig.Focus]!), path: round(s[Sig.Path]!), mentionRef: round(s[Sig.MentionRef]!),
    coverage: round(s[Sig.Coverage]!),
  };
}

/** The largest file and chunk text scores of the question (0 when nothing matched). */
function textMaxima(texts: FileScores): { maxFile: number; maxChunk: number } {
  let maxFile = 0;
  let maxChunk = 0;
  for (let place = 0; place < texts.size; place++) {
    maxFile = Math.max(maxFile, texts.bm25[place]!);
    maxChunk = Math.max(maxChunk, texts.chunkAgg(place));
  }
  return { maxFile, maxChunk };
}

/**
 * The relevance cut-off. The question is answerable when some file holds a named symbol or at least `minRelevance`
 * of the question's vocabulary; then files with half that, or close in the graph or by vectors to what matched,
 * stay. Otherwise nothing does: an honest empty answer beats a padded one.
 */
export function applyCutoff(ranked: ScoredFile[], minRelevance: number): { files: ScoredFile[]; relevant: boolean } {
  const relevant = ranked.some((f) => f.relevance >= minRelevance);
  if (!relevant) return { files: [], relevant };
  return { files: ranked.filter((f) => keptByCutoff(f.relevance, f.signals.proximity, f.signals.vector, minRelevance)), relevant };
}

/** Whether a file stays past the cut-off of an answerable question (proximity and vector as listed, rounded). */
function keptByCutoff(relevance: number, proximity: number, vector: number, minRelevance: number): boolean {
  return relevance >= minRelevance / 2 || proximity >= 0.5 || vector >= 0.5;
}
