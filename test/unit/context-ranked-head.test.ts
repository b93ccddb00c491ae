/**
 * The product lists only the head of the ranked files (rank-files.ts `rankedHead`): it must be exactly the head of
 * the full ranking after the cut-off, on a real index (sql.js + tree-sitter) whose files tie (copies of one file
 * under other folders, as vendored trees are), include tests and reach others only through the graph.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_MIN_RELEVANCE } from '../../src/core/context/context';
import { collectEvidence } from '../../src/core/context/evidence';
import { applyCutoff, rankedHead, rankFiles } from '../../src/core/context/rank-files';
import { topSlots } from '../../src/core/context/top-slots';
import { DEFAULT_WEIGHTS } from '../../src/core/context/types';
import { analyseQuestion } from '../../src/core/question/analysis';
import type { IndexDatabase } from '../../src/core/store/database';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';

const RETRY = "import { wait } from '../util/wait';\n// retry the request with backoff between attempts\nexport function retryRequest(attempts: number) { for (let i = 0; i < attempts; i++) wait(100 * 2 ** i); }\n";
const FILES: Record<string, string> = {
  'src/util/wait.ts': 'export function wait(ms: number) { return ms; }\n',
  'src/http/retry.ts': RETRY,
  'src/http/retry.test.ts': "import { retryRequest } from './retry';\n// retry test: the request retries with backoff\nretryRequest(3);\n",
  'src/http/client.ts': "import { retryRequest } from './retry';\nexport function send() { return retryRequest(2); }\n",
  // Copies tie on every signal: their order is the paths' order.
  ...Object.fromEntries(['z', 'b', 'y', 'a', 'm', 'c'].map((d) => [`vendor/${d}/http/retry.ts`, RETRY])),
  ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/misc/m${i}.ts`, `// the request attempts ${i}\nexport const m${i} = ${i};\n`])),
};
const QUESTIONS = ['how does the request retry with backoff between attempts', 'where is retryRequest defined', 'retry test backoff', 'wait between attempts'];

let root = '';
let db: IndexDatabase;
before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

describe('rankedHead', () => {
  it('is the head of applyCutoff(rankFiles) for every limit, with and without tests', () => {
    for (const q of QUESTIONS) {
      const ev = collectEvidence(db, analyseQuestion(q));
      const all = rankFiles(ev, DEFAULT_WEIGHTS);
      assert.ok(all.length > 8, `the fixture must rank many files for "${q}"`);
      for (const excludeTests of [false, true]) {
        const listed = excludeTests ? all.filter((f) => !f.path.includes('.test.')) : all;
        const cut = applyCutoff(listed, DEFAULT_MIN_RELEVANCE);
        for (const limit of [1, 3, 7, 100]) {
          const head = rankedHead(ev, DEFAULT_WEIGHTS, { minRelevance: DEFAULT_MIN_RELEVANCE, limit, excludeTests });
          assert.deepEqual(head.files, cut.files.slice(0, limit), `"${q}" limit ${limit} excludeTests ${excludeTests}`);
          assert.equal(head.relevant, cut.relevant);
          assert.equal(head.expanded, all.length);
        }
      }
    }
  });

  it('orders tied copies by path', () => {
    const ev = collectEvidence(db, analyseQuestion(QUESTIONS[0]!));
    const head = rankedHead(ev, DEFAULT_WEIGHTS, { minRelevance: DEFAULT_MIN_RELEVANCE, limit: 100 }).files.map((f) => f.path);
    const copies = head.filter((p) => p.startsWith('vendor/'));
    assert.deepEqual(copies, ['a', 'b', 'c', 'm', 'y', 'z'].map((d) => `vendor/${d}/http/retry.ts`));
  });
});

describe('topSlots', () => {
  it('equals a stable sort by score then rank, cut to the limit', () => {
    // Few distinct scores and ranks, so ties on both are common.
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + next(60);
      const score = Array.from({ length: n }, () => next(5) / 4);
      const rank = Array.from({ length: n }, () => next(6));
      // Slots listed in another order than their place in the arrays: scores are read by slot, not by position.
      const slots = Array.from({ length: n }, (_, i) => n - 1 - i);
      const sorted = [...slots].sort((a, b) => score[b]! - score[a]! || rank[a]! - rank[b]!);
      for (const limit of [1, 2, 5, n - 1, n, n + 3]) {
        assert.deepEqual(topSlots(slots, limit, score, (i) => rank[i]!), sorted.slice(0, Math.max(limit, 0)), `trial ${trial} limit ${limit}`);
      }
    }
  });
});
