// Feature dump for fitting the file ranker (issue 17): for each set A question, the product's own evidence gathering
// runs once against the cached index (as `eval-retrieval.mjs fast` does), and every candidate file the product would
// list (after its relevance cut-off, the first --depth of today's order) is written with its feature vector and its
// label (a file the commit changed). One JSONL per repository, deterministic (same indexes, same bytes).
//
//   node scripts/eval/dump-features.mjs [--repos hono,fastify] [--depth 100] [--out DIR]
//
// Without --repos it takes every repository whose set A indexes are all cached (`eval-retrieval.mjs prepare`).
// Output: DIR (default <eval-cache>/features)/<owner>__<name>.jsonl, one line per question:
//   {id, repo, gt: [paths], gtMissing, locate, aboutTests, cands: [{path, today, label, f: {feature: value}}]}
// `today` is the file's 0-based place in today's ranking; the features are the product's (src/core/context/features.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cachedDb, hasAllIndexes, lib, loadEngineParts, questionsOf } from './engine.mjs';

const args = lib.parseArgs(process.argv.slice(2), {});
const depth = Number(args.depth ?? 100);
const outDir = resolve(args.out ?? join(lib.CACHE_DIR, 'features'));

async function main() {
  const parts = await loadEngineParts();
  const assets = parts.createNodeAssetLocator(resolve('dist'));
  const repos = lib.selectRepos(lib.loadConfig(), args.repos).filter((repo) => {
    if (hasAllIndexes(repo, 'A')) return true;
    if (args.repos) throw new Error(`${repo.name}: some set A indexes are not cached yet`);
    return false;
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'features.json'), `${JSON.stringify({ depth, features: parts.FEATURES }, null, 1)}\n`);
  for (const repo of repos) {
    const t0 = Date.now();
    const lines = [];
    const byCommit = new Map();
    for (const q of questionsOf(repo, 'A')) byCommit.set(q.workspace_commit, [...(byCommit.get(q.workspace_commit) ?? []), q]);
    for (const [commit, qs] of byCommit) {
      const db = await parts.IndexDatabase.open(assets, parts.memoryImage(readFileSync(cachedDb(repo, commit))));
      for (const q of qs) {
        const ev = parts.collectEvidence(db, parts.analyseQuestion(q.question));
        // The same list `context` answers from: today's order after the relevance cut-off.
        const ranked = parts.applyCutoff(parts.rankFiles(ev, parts.DEFAULT_WEIGHTS), parts.DEFAULT_MIN_RELEVANCE).files;
        const feats = parts.fileFeatures(ev, ranked, depth);
        const cands = feats.map((f, i) => ({ path: ranked[i].path, today: i, f }));
        const gt = new Set(q.gt.files);
        for (const c of cands) c.label = gt.has(c.path) ? 1 : 0;
        lines.push(JSON.stringify({ id: q.id, repo: repo.name, gt: q.gt.files, gtMissing: q.gt.files.filter((p) => !cands.some((c) => c.path === p)).length,
          locate: ev.locate, aboutTests: ev.aboutTests, cands }));
      }
      db.close();
    }
    writeFileSync(join(outDir, `${lib.slugOf(repo.name)}.jsonl`), `${lines.join('\n')}\n`);
    process.stderr.write(`${repo.name}: ${lines.length} questions in ${Date.now() - t0} ms\n`);
  }
  if (!repos.length) process.stderr.write('no repository has all its set A indexes cached yet\n');
}

await main();
