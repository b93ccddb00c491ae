/**
 * The fitted file ranker (issue 17): a linear model over the features of `features.ts`, fitted pairwise by
 * scripts/eval/fit-ranker.mjs on the set A questions of the development repositories, re-orders the head of today's
 * list after the relevance cut-off. It re-orders only — which files are listed, their scores and signals stay today's,
 * so the cut-off and the node selection keep their meaning. The weights are on the raw features (the fit
 * standardises internally and divides back), so scoring is a plain weighted sum, the same sum fit-ranker.mjs ranks by.
 */
import { FEATURE_NAMES, fileFeatures, type FeatureName, type FeatureVector } from './features';
import model from './ranker-model.json';
import type { Evidence } from './evidence';
import type { ScoredFile } from './rank-files';

/** Files re-ordered: the depth the features were dumped and the model fitted at (dump-features.mjs --depth). */
export const FITTED_DEPTH = 100;
/** Per-feature contributions kept for `--explain`: the largest in magnitude. */
const EXPLAIN_TOP = 4;

const WEIGHTS: Record<FeatureName, number> = (() => {
  const w = model.weights as Record<string, number>;
  const missing = FEATURE_NAMES.filter((n) => typeof w[n] !== 'number');
  // A model fitted on another feature set would rank by a different sum than it was scored with.
  if (missing.length || Object.keys(w).length !== FEATURE_NAMES.length) throw new Error(`ranker-model.json does not match features.ts (missing ${missing.join(', ') || 'none'}); refit with scripts/eval/fit-ranker.mjs`);
  return w as Record<FeatureName, number>;
})();

export interface FittedExplain {
  /** The model's score (a sum of weight × feature; only its order means anything). */
  score: number;
  /** The largest contributions, weight × feature, biggest magnitude first. */
  top: Array<{ feature: FeatureName; value: number }>;
}

/** The model's score of one feature vector, summed in feature order as fit-ranker.mjs sums it. */
export function fittedScore(f: FeatureVector): number {
  let s = 0;
  for (const n of FEATURE_NAMES) s += WEIGHTS[n] * f[n];
  return s;
}

function explainOf(f: FeatureVector, score: number): FittedExplain {
  const parts = FEATURE_NAMES.map((feature) => ({ feature, value: WEIGHTS[feature] * f[feature] })).filter((c) => c.value !== 0);
  parts.sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || a.feature.localeCompare(b.feature));
  return { score: Math.round(score * 1e4) / 1e4, top: parts.slice(0, EXPLAIN_TOP).map((c) => ({ feature: c.feature, value: Math.round(c.value * 1e4) / 1e4 })) };
}

/**
 * `files` (today's order after the cut-off) with its first FITTED_DEPTH re-ordered by the model, ties kept in today's
 * order; the rest follow unchanged. With `explain`, each re-ordered file's score and top contributions, by path.
 */
export function fittedRank(ev: Evidence, files: ScoredFile[], explain = false): { files: ScoredFile[]; explain?: Map<string, FittedExplain> } {
  if (files.length < 2) return { files };
  const feats = fileFeatures(ev, files, FITTED_DEPTH);
  const scores = feats.map(fittedScore);
  const order = feats.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const head = order.map((i) => files[i]!);
  const out = { files: [...head, ...files.slice(feats.length)] };
  if (!explain) return out;
  return { ...out, explain: new Map(feats.map((f, i) => [files[i]!.path, explainOf(f, scores[i]!)])) };
}
