/**
 * Aider's ranking without materialising its multigraph: an edge referencer → definer per shared identifier,
 * weighted by the identifier's multiplier × √(references), then PageRank personalised by the mentioned files and
 * each definition ranked by the flow along its edges. An edge's weight does not depend on the definer, so all flow
 * passes through identifier nodes and one iteration costs O(references + definitions) instead of O(edges).
 */
import type { MapData } from './types';

export interface RankInput {
  /** File index → personalisation weight (unnormalised); empty means uniform. */
  personalization: Map<number, number>;
  mentionedIdents: Set<string>;
  /** Files whose outgoing edges weigh 50× (Aider's chat files; the slice's focus files). */
  focusFiles: Set<number>;
}

/**
 * (file, identifier) pairs, best first, in columns: definition k is file `file[k]` defining identifier `ident[k]`
 * (a number in MapData.idents) with rank `rank[k]`. The unpersonalised ranking is cached with the graph; as one
 * object per definition it held ~9 MB at 10k files.
 */
export interface RankedDefinitions {
  file: Int32Array;
  ident: Int32Array;
  rank: Float64Array;
}

export interface RankOutput {
  fileRank: Float64Array;
  definitions: RankedDefinitions;
}

const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-6;
const SELF_EDGE_WEIGHT = 0.1;

/** Aider's identifier multiplier: mentioned ×10, long compound names ×10, private ×0.1, defined widely ×0.1. */
export function identMultiplier(ident: string, definers: number, mentioned: Set<string>): number {
  let mul = 1;
  const alpha = /[A-Za-z]/.test(ident);
  const compound = ((ident.includes('_') || ident.includes('-')) && alpha) || (/[A-Z]/.test(ident) && /[a-z]/.test(ident));
  if (mentioned.has(ident)) mul *= 10;
  if (compound && ident.length >= 8) mul *= 10;
  if (ident.startsWith('_')) mul *= 0.1;
  if (definers > 5) mul *= 0.1;
  return mul;
}

export function rankDefinitions(data: MapData, input: RankInput): RankOutput {
  const n = data.files.length;
  const g = data.idents;
  const outWeight = new Float64Array(n);
  // Identifiers with references (the graph's edges), and each reference's weight (parallel to g.refFiles).
  const edges: number[] = [];
  const refWeight = new Float64Array(g.refFiles.length);
  // Identifiers defined but never referenced: Aider's small self-edge, so their definer keeps some of its rank.
  const selfWeight = new Float64Array(n);
  /** Positions in g.defFiles of self-edged definitions, and their identifiers. */
  const selfDefs: number[] = [];
  const selfIdents: number[] = [];
  for (let i = 0; i < g.names.length; i++) {
    const ident = g.names[i]!;
    const defFrom = g.defStart[i]!;
    const defTo = g.defStart[i + 1]!;
    if (g.refStart[i] === g.refStart[i + 1]) {
      for (let k = defFrom; k < defTo; k++) {
        const f = g.defFiles[k]!;
        selfWeight[f] += SELF_EDGE_WEIGHT;
        selfDefs.push(k);
        selfIdents.push(i);
      }
      continue;
    }
    const definers = defTo - defFrom;
    const mul = identMultiplier(ident, definers, input.mentionedIdents);
    for (let k = g.refStart[i]!; k < g.refStart[i + 1]!; k++) {
      const src = g.refFiles[k]!;
      const w = mul * (input.focusFiles.has(src) ? 50 : 1) * Math.sqrt(g.refCounts[k]!);
      refWeight[k] = w;
      outWeight[src] += w * definers;
    }
    edges.push(i);
  }
  for (let f = 0; f < n; f++) outWeight[f] += selfWeight[f]!;
  /** Rank flowing through identifier `i` from its referencers under file ranks `rank`. */
  const flow = (i: number, rank: Float64Array): number => {
    let through = 0;
    for (let k = g.refStart[i]!; k < g.refStart[i + 1]!; k++) {
      const src = g.refFiles[k]!;
      through += rank[src]! * refWeight[k]! / outWeight[src]!;
    }
    return through;
  };

  const teleport = new Float64Array(n);
  let pSum = 0;
  for (const w of input.personalization.values()) pSum += w;
  if (pSum > 0) for (const [f, w] of input.personalization) teleport[f] += w / pSum;
  else teleport.fill(1 / n);

  let rank = Float64Array.from(teleport);
  // Two buffers, swapped each iteration: a new one per iteration left up to 100 dead arrays of n doubles outside
  // V8's heap until it next collected (~100 MB of the map build's peak at 100k files).
  let next = new Float64Array(n);
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    next.fill(0);
    let dangling = 0;
    for (let f = 0; f < n; f++) {
      if (outWeight[f] === 0) dangling += rank[f]!;
      else if (selfWeight[f]) next[f] += DAMPING * rank[f]! * selfWeight[f]! / outWeight[f]!;
    }
    for (const i of edges) {
      const through = flow(i, rank);
      for (let k = g.defStart[i]!; k < g.defStart[i + 1]!; k++) next[g.defFiles[k]!] += DAMPING * through;
    }
    let err = 0;
    for (let f = 0; f < n; f++) {
      next[f] += (DAMPING * dangling + (1 - DAMPING)) * teleport[f]!;
      err += Math.abs(next[f]! - rank[f]!);
    }
    [rank, next] = [next, rank];
    if (err < n * TOLERANCE) break;
  }

  // Each definition's rank is the flow its edges carry with the final file ranks, discounted outside the main code.
  const total = g.defFiles.length;
  const files = new Int32Array(total);
  const idents = new Int32Array(total);
  const ranks = new Float64Array(total);
  let at = 0;
  for (const i of edges) {
    const through = flow(i, rank);
    for (let k = g.defStart[i]!; k < g.defStart[i + 1]!; k++) {
      const d = g.defFiles[k]!;
      files[at] = d;
      idents[at] = i;
      ranks[at++] = through * data.fileWeight[d]!;
    }
  }
  selfDefs.forEach((k, j) => {
    const f = g.defFiles[k]!;
    files[at] = f;
    idents[at] = selfIdents[j]!;
    ranks[at++] = rank[f]! * SELF_EDGE_WEIGHT / outWeight[f]! * data.fileWeight[f]!;
  });
  // What the request mentions comes first: its files' definitions and definitions of its identifiers carry their
  // file's whole rank on top (Aider only lets mentions steer the walk, which promotes a mentioned file's
  // neighbours more than the file itself).
  if (input.personalization.size) {
    for (let k = 0; k < total; k++) {
      if (input.mentionedIdents.has(g.names[idents[k]!]!) || (input.personalization.has(files[k]!) && !input.focusFiles.size)) ranks[k] += rank[files[k]!]!;
    }
  }
  const order = Array.from({ length: total }, (_, k) => k);
  const byPath = data.pathOrder;
  order.sort((a, b) => ranks[b]! - ranks[a]! || byPath[files[a]!]! - byPath[files[b]!]! || g.names[idents[a]!]!.localeCompare(g.names[idents[b]!]!));
  return {
    fileRank: rank,
    definitions: { file: Int32Array.from(order, (k) => files[k]!), ident: Int32Array.from(order, (k) => idents[k]!), rank: Float64Array.from(order, (k) => ranks[k]!) },
  };
}
