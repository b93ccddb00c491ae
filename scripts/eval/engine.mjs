// Shared by the retrieval evaluation scripts: the shared set's library, the cached indexes, the ranking code bundled
// from src/ (the same code the CLI runs) and the set A/B metrics (as ../shared/eval/score.mjs computes them).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const EVAL = resolve(process.env.EVAL ?? '../shared/eval');
export const lib = await import(pathToFileURL(join(EVAL, 'lib/common.mjs')).href);
export const INDEX_CACHE = join(lib.CACHE_DIR, 'ctx-index');

/**
 * The index schema the built CLI writes, read from its source (this script runs from the repository): a schema bump
 * then asks `prepare` for new indexes instead of opening ones the engine can no longer read.
 */
const SCHEMA = /export const SCHEMA_VERSION = (\d+);/.exec(readFileSync(resolve('src/core/store/schema.ts'), 'utf8'))?.[1] ?? '0';

/** Where `eval-retrieval.mjs prepare` keeps the index of `repo` at `commit`. */
export const cachedDb = (repo, commit) => join(INDEX_CACHE, lib.slugOf(repo.name), `${lib.short(commit)}.s${SCHEMA}.db`);

/** The questions of `repo` in `sets` ('A', 'B' or 'AB'), the first `limit` of each set. */
export function questionsOf(repo, sets, limit = Infinity) {
  const slug = lib.slugOf(repo.name);
  const out = [];
  if (sets.includes('A')) out.push(...lib.readJsonl(join(lib.QUESTIONS_DIR, `${slug}.jsonl`)).slice(0, limit));
  if (sets.includes('B')) out.push(...lib.readJsonl(join(lib.QUESTIONS_DIR, `${slug}.defs.jsonl`)).slice(0, limit));
  return out;
}

/** True when every workspace the questions of `repo` need has a cached index. */
export const hasAllIndexes = (repo, sets, limit) => questionsOf(repo, sets, limit).every((q) => existsSync(cachedDb(repo, q.workspace_commit)));

/** Bundles the ranking code from src/ for use in this process (the same code the CLI runs). */
export async function loadEngineParts() {
  const esbuild = await import('esbuild');
  const outfile = resolve('out/eval/context-lib.cjs');
  await esbuild.build({
    stdin: {
      contents: `export { IndexDatabase } from './src/core/store/database';
        export { memoryImage } from './src/core/store/paged-file';
        export { createNodeAssetLocator } from './src/node/assets';
        export { collectEvidence } from './src/core/context/evidence';
        export { analyseQuestion } from './src/core/question/analysis';
        export { rankFiles, applyCutoff, DEFAULT_CLASS_FACTORS } from './src/core/context/rank-files';
        export { DEFAULT_MIN_RELEVANCE, DEFAULT_MAX_FILES } from './src/core/context/context';
        export { DEFAULT_WEIGHTS } from './src/core/context/types';
        export { fileFeatures, FEATURES, FEATURE_NAMES } from './src/core/context/features';
        export { fittedRank } from './src/core/context/fitted-rank';
        export { splitIdentifier } from './src/core/parse/identifiers';
        export { stem } from './src/core/context/terms';`,
      resolveDir: resolve('.'), loader: 'ts',
    },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'warning',
  });
  return createRequire(import.meta.url)(outfile);
}

/** Set A metrics of a ranked path list (score.mjs's scoreA: paths de-duplicated in rank order). */
export function metricsA(q, paths) {
  const files = [...new Set(paths)];
  const pos = q.gt.files.map((f) => files.indexOf(f)).filter((i) => i >= 0);
  const n = q.gt.files.length;
  return { r1: pos.filter((i) => i < 1).length / n, r5: pos.filter((i) => i < 5).length / n, r10: pos.filter((i) => i < 10).length / n,
    mrr: pos.length ? 1 / (Math.min(...pos) + 1) : 0 };
}

/** Set B metrics (score.mjs's scoreB). */
export function metricsB(q, ranked) {
  const i = ranked.findIndex((r) => r.path === q.gt.file);
  const near = (e) => e && e.path === q.gt.file && Math.abs(e.line - q.gt.line) <= 2;
  return { file1: i === 0 ? 1 : 0, line1: near(ranked[0]) ? 1 : 0, line5: ranked.slice(0, 5).some(near) ? 1 : 0, mrr: i >= 0 ? 1 / (i + 1) : 0 };
}

export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
