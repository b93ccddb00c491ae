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
// `today` is the file's 0-based place in today's ranking; features are documented in FEATURES below.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { cachedDb, hasAllIndexes, lib, loadEngineParts, questionsOf } from './engine.mjs';

const args = lib.parseArgs(process.argv.slice(2), {});
const depth = Number(args.depth ?? 100);
const outDir = resolve(args.out ?? join(lib.CACHE_DIR, 'features'));

/** Feature names, in a fixed order, with what each means. */
export const FEATURES = {
  entity: 'today: a symbol named in the question is defined here (0..1)',
  proximity: 'today: graph closeness to the strongest files',
  bm25File: 'today: whole-file BM25, over the best file',
  bm25Chunk: 'today: best-chunk BM25 aggregate, over the best file',
  focus: 'today: best share of the question vocabulary in one chunk',
  path: 'today: question words in the file name and folders',
  mentionRef: 'today: the file uses a named symbol',
  coverage: 'today: idf share of the question terms the file holds',
  todayScore: "today's final score over the question's best",
  todayRecip: "1 / (1 + today's rank)",
  clsTest: 'path class test', clsAux: 'path class aux (examples, docs, benchmarks)', clsGenerated: 'path class generated copy',
  clsTooling: 'path class build tooling', testAsked: 'a test file and the question is about tests',
  stemExact: 'the file stem, case style ignored, is a question identifier or a run of 1-4 question words',
  stemExactMulti: 'stemExact for a stem of two or more words (body-limit, bodyLimit, body_limit)',
  stemExactUnique: 'stemExact divided by how many files share the stem',
  stemParts: 'share of the stem words among the question words (stemmed)',
  dirExact: 'the parent folder, case style ignored, is a question identifier or word run',
  dirAny: 'some folder on the path is a question identifier or word run (src/lib/pkg excluded)',
  indexFile: 'index/__init__/mod/lib/main file',
  depth: 'path segments / 10',
  logLines: 'log(1 + lines) / 10',
};
const NAMES = Object.keys(FEATURES);
const GENERIC_DIRS = new Set(['src', 'lib', 'pkg', 'internal', 'main', 'java', 'kotlin', 'com', 'org', 'app', 'source']);
const INDEX_STEMS = new Set(['index', '__init__', 'mod', 'lib', 'main']);

const norm = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The question's identifiers and word runs, case style ignored: `bodyLimit`, `body_limit` and "body limit" meet. */
function questionForms(question, parts) {
  const forms = new Set();
  const add = (s) => { const n = norm(s); if (n.length >= 2) { forms.add(n); if (n.length > 3 && n.endsWith('s')) forms.add(n.slice(0, -1)); } };
  for (const tok of question.match(/[A-Za-z_$][A-Za-z0-9_$-]*/g) ?? []) add(tok.replace(/-+$/, ''));
  const words = (question.match(/[A-Za-z0-9]+/g) ?? []).flatMap((w) => parts.splitIdentifier(w)).map((w) => w.toLowerCase());
  for (let i = 0; i < words.length; i++) for (let n = 2; n <= 4 && i + n <= words.length; n++) add(words.slice(i, i + n).join(''));
  const stems = new Set(words.filter((w) => w.length >= 2 && !parts.isStopword(w)).map((w) => parts.stem(w)));
  return { forms, stems };
}

function fileStem(path) {
  return basename(path).replace(/\.[^.]*$/, '').replace(/\.(d|test|spec)$/, '');
}

function featuresOf(parts, ev, ranked, qf, stemCount) {
  const best = ranked[0]?.score || 1;
  return ranked.slice(0, depth).map((r, i) => {
    const fact = ev.facts.files.get(r.fileId);
    const segs = r.path.split('/');
    const st = fileStem(r.path);
    const stemWords = parts.splitIdentifier(st.replace(/[-.]/g, '_')).map((w) => w.toLowerCase()).filter((w) => w.length >= 2);
    const exact = qf.forms.has(norm(st)) ? 1 : 0;
    const dirs = segs.slice(0, -1).map(norm).filter((d) => d.length >= 2);
    const s = r.signals;
    const f = {
      entity: s.entity, proximity: s.proximity, bm25File: s.bm25File, bm25Chunk: s.bm25Chunk, focus: s.focus, path: s.path,
      mentionRef: s.mentionRef, coverage: s.coverage, todayScore: r.score / best, todayRecip: 1 / (1 + i),
      clsTest: fact.cls === 'test' ? 1 : 0, clsAux: fact.cls === 'aux' ? 1 : 0, clsGenerated: fact.cls === 'generated' ? 1 : 0,
      clsTooling: fact.cls === 'tooling' ? 1 : 0, testAsked: fact.cls === 'test' && ev.aboutTests ? 1 : 0,
      stemExact: exact, stemExactMulti: exact && stemWords.length >= 2 ? 1 : 0, stemExactUnique: exact / (stemCount.get(norm(st)) ?? 1),
      stemParts: stemWords.length ? stemWords.filter((w) => qf.stems.has(parts.stem(w))).length / stemWords.length : 0,
      dirExact: dirs.length && qf.forms.has(dirs[dirs.length - 1]) ? 1 : 0,
      dirAny: dirs.some((d) => !GENERIC_DIRS.has(d) && qf.forms.has(d)) ? 1 : 0,
      indexFile: INDEX_STEMS.has(st) ? 1 : 0, depth: segs.length / 10, logLines: Math.log1p(fact.lines) / 10,
    };
    for (const k of NAMES) f[k] = Math.round(f[k] * 1e4) / 1e4;
    return { path: r.path, today: i, f };
  });
}

async function main() {
  const parts = await loadEngineParts();
  const assets = parts.createNodeAssetLocator(resolve('dist'));
  const repos = lib.selectRepos(lib.loadConfig(), args.repos).filter((repo) => {
    if (hasAllIndexes(repo, 'A')) return true;
    if (args.repos) throw new Error(`${repo.name}: some set A indexes are not cached yet`);
    return false;
  });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'features.json'), `${JSON.stringify({ depth, features: FEATURES }, null, 1)}\n`);
  for (const repo of repos) {
    const t0 = Date.now();
    const lines = [];
    const byCommit = new Map();
    for (const q of questionsOf(repo, 'A')) byCommit.set(q.workspace_commit, [...(byCommit.get(q.workspace_commit) ?? []), q]);
    for (const [commit, qs] of byCommit) {
      const db = await parts.IndexDatabase.open(assets, parts.memoryImage(readFileSync(cachedDb(repo, commit))));
      for (const q of qs) {
        const ev = parts.collectEvidence(db, q.question);
        const stemCount = new Map();
        for (const fact of ev.facts.files.values()) { const n = norm(fileStem(fact.path)); stemCount.set(n, (stemCount.get(n) ?? 0) + 1); }
        // The same list `context` answers from: today's order after the relevance cut-off.
        const ranked = parts.applyCutoff(parts.rankFiles(ev, parts.DEFAULT_WEIGHTS), parts.DEFAULT_MIN_RELEVANCE).files;
        const cands = featuresOf(parts, ev, ranked, questionForms(q.question, parts), stemCount);
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
