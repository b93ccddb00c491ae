/**
 * The fitted file ranker (src/core/context/fitted-rank.ts) in the context path, on a small real index (sql.js +
 * tree-sitter): the file that defines a type the question names is lifted above files that only use it, which today's
 * hand-weighted order puts first; the re-ordering is the model's weighted sum, ties in today's order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MIN_RELEVANCE, getContextForQuestion } from '../../src/core/context/context';
import { collectEvidence } from '../../src/core/context/evidence';
import { FEATURE_NAMES, fileFeatures } from '../../src/core/context/features';
import { FITTED_DEPTH, fittedRank, fittedScore } from '../../src/core/context/fitted-rank';
import model from '../../src/core/context/ranker-model.json';
import { applyCutoff, rankFiles } from '../../src/core/context/rank-files';
import { DEFAULT_WEIGHTS } from '../../src/core/context/types';
import type { IndexDatabase } from '../../src/core/store/database';
import { captureLogger, removeWorkspace } from '../helpers/workspace';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { analyseQuestion } from '../../src/core/question/analysis';

const FILES = {
  'src/retry/policy.ts': 'export class RetryPolicy {\n  constructor(public attempts: number) {}\n  delay(n: number): number { return 100 * 2 ** n; }\n}\n',
  'src/http/client.ts': "import { RetryPolicy } from '../retry/policy';\n// retry the request with backoff: the policy decides the delay between attempts\nexport function send(url: string, policy: RetryPolicy) {\n  for (let attempt = 0; attempt < policy.attempts; attempt++) { const backoff = policy.delay(attempt); if (backoff > 0 && url) return backoff; }\n  return 0;\n}\n",
  'src/http/stream.ts': "import { RetryPolicy } from '../retry/policy';\n// a stream retries with backoff too: each attempt waits the policy delay\nexport function reconnect(policy: RetryPolicy) { let backoff = 0; for (let attempt = 0; attempt < policy.attempts; attempt++) backoff += policy.delay(attempt); return backoff; }\n",
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`pad/p${i}.ts`, `export function pad${i}() { return ${i}; }\n`])),
};
const QUESTION = 'How does RetryPolicy decide the backoff delay between retry attempts?';

let root = '';
let db: IndexDatabase;

before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

const todayOrder = () => {
  const ev = collectEvidence(db, analyseQuestion(QUESTION));
  return { ev, files: applyCutoff(rankFiles(ev, DEFAULT_WEIGHTS), DEFAULT_MIN_RELEVANCE).files };
};

describe('fitted file ranker', () => {
  it('lists first the file that defines the named type, which today ranks below a file using it', async () => {
    const { files } = todayOrder();
    assert.notEqual(files[0]!.path, 'src/retry/policy.ts', 'the fixture must be one today gets wrong');
    const r = await getContextForQuestion(db, analyseQuestion(QUESTION), { format: 'json' }, { logger: captureLogger(), clock: { now: () => 0 } });
    assert.equal(r.files[0]!.path, 'src/retry/policy.ts');
    assert.deepEqual(new Set(r.files.map((f) => f.path)), new Set(files.map((f) => f.path)), 're-orders, never adds or drops');
  });

  it('orders by the weighted sum of the written model, ties in today order', () => {
    const { ev, files } = todayOrder();
    const feats = fileFeatures(ev, files, FITTED_DEPTH);
    const w = model.weights as Record<string, number>;
    const byHand = feats.map((f) => FEATURE_NAMES.reduce((s, n) => s + w[n]! * f[n], 0));
    assert.deepEqual(feats.map(fittedScore), byHand);
    const expected = files.map((f, i) => ({ f, i })).sort((a, b) => byHand[b.i]! - byHand[a.i]! || a.i - b.i).map((x) => x.f.path);
    assert.deepEqual(fittedRank(ev, files).files.map((f) => f.path), expected);
  });

  it('explains each file with its fitted score and at most four contributions, only when asked', async () => {
    const deps = { logger: captureLogger(), clock: { now: () => 0 } };
    const plain = await getContextForQuestion(db, analyseQuestion(QUESTION), { format: 'json' }, deps);
    assert.ok(plain.files.every((f) => f.fitted === undefined));
    const r = await getContextForQuestion(db, analyseQuestion(QUESTION), { format: 'json', explain: true }, deps);
    const top = r.files[0]!.fitted!;
    assert.ok(top.top.length > 0 && top.top.length <= 4);
    assert.ok(top.top.some((c) => c.feature === 'definesUnique' && c.value > 0), JSON.stringify(top));
    const scores = r.files.map((f) => f.fitted!.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
  });
});
