/**
 * `context-oracle context` and `eval` as a user runs them: the built CLI on a copy of the shop fixture — formats,
 * --explain, --verbose stage counts, the eval harness adapter (--question-file → {files: [{path, line}]}), golden
 * question scoring, embeddings through a local OpenAI-compatible server, and usage errors (exit 2).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, runCliJson, runCliAsync } from '../helpers/cli';
import { startFakeEmbeddings, type FakeEmbeddings } from '../fixtures/context/fake-embeddings';
import { copyShop } from '../fixtures/context/shop';
import { removeWorkspace } from '../helpers/workspace';

let root: string;
before(() => {
  root = copyShop();
  assert.equal(runCli(['index', '--root', root]).code, 0);
});
after(() => removeWorkspace(root));

interface ContextJson {
  question: string;
  token_count: number;
  files: { path: string; line: number; score: number }[];
  nodes: { id: string; reason: string }[];
  text: string;
  stats: { budget: number; selected: number };
  empty?: string;
}

describe('context', () => {
  it('prints the mu context by default, within --max-tokens', () => {
    const r = runCli(['context', 'how does the cart total apply a discount code?', '--root', root, '--max-tokens', '300']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^§ how does the cart total apply a discount code\?\n! src\/cart\/cart\.ts\n/);
  });

  it('emits the documented JSON with ranked files', () => {
    const { code, json } = runCliJson<ContextJson>(['context', 'Where is applyDiscount defined?', '--root', root]);
    assert.equal(code, 0);
    assert.deepEqual(json.files[0] && { path: json.files[0].path, line: json.files[0].line }, { path: 'src/pricing/discount.ts', line: 7 });
    assert.ok(json.token_count > 0 && json.token_count <= json.stats.budget);
    assert.ok(json.nodes.some((n) => n.id === 'src/pricing/discount.ts#applyDiscount' && n.reason === 'mention'));
  });

  it('answers the eval harness adapter: question file in, {files:[{path,line}]} out', () => {
    const qf = join(root, 'q.json');
    writeFileSync(qf, JSON.stringify({ id: 'x', set: 'B', repo: 'shop', question: 'Where is slugify defined?', max_results: 10 }));
    const r = runCli(['context', '--root', root, '--question-file', qf, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as ContextJson).files;
    assert.deepEqual({ path: files[0]?.path, line: files[0]?.line }, { path: 'src/util/strings.ts', line: 2 });
  });

  it('--explain adds per-signal scores and the budget cuts; --verbose prints stage counts to stderr', () => {
    const r = runCli(['context', 'checkout charges the card for the cart total', '--root', root, '--max-tokens', '150', '--explain', '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /-- explain: files .*\n.*src\/checkout\/checkout\.ts:10 +entity [0-9.]+ +bm25File 1\.00/);
    // Under each file, the fitted ranker's score and its largest weight × feature terms (at most four).
    assert.match(r.stdout, /checkout\.ts:10 .*\n +fitted -?[0-9.]+: todayScore \+[0-9.]+( +[a-zA-Z0-9]+ [+-][0-9.]+){0,3}\n/);
    assert.match(r.stdout, /-- explain: cut by the budget --\n.*(left out|shown as signature only)/);
    for (const stage of ['entities:', 'seeds (named symbols):', 'expanded (candidate files):', 'scored (above cut-off):', 'selected nodes:', 'tokens: ']) {
      assert.ok(r.stderr.includes(stage), `missing "${stage}" in ${r.stderr}`);
    }
    assert.match(r.stderr, /tokens: \d+ \/ 150/);
  });

  it('says so when nothing is relevant, and exits 0', () => {
    const { code, json } = runCliJson<ContextJson>(['context', 'weather forecast for Lisbon tomorrow', '--root', root]);
    assert.equal(code, 0);
    assert.ok(json.empty);
    assert.deepEqual(json.files, []);
  });

  it('rejects bad usage with exit 2', () => {
    assert.equal(runCli(['context', '--root', root]).code, 2);
    assert.equal(runCli(['context', 'x', '--root', root, '--format', 'yaml']).code, 2);
    assert.equal(runCli(['context', 'x', '--root', root, '--weight', 'nonsense=1']).code, 2);
    assert.equal(runCli(['context', 'x', '--root', root, '--question-file', join(root, 'missing.json')]).code, 2);
  });
});

describe('eval', () => {
  it('scores golden questions: recall@k, MRR, tokens per hit; bad lines are skipped and counted', () => {
    const file = join(root, 'golden.jsonl');
    writeFileSync(file, [
      JSON.stringify({ question: 'Where is chargeCard defined?', files: ['src/payments/card.ts'] }),
      JSON.stringify({ question: 'how is the discount capped?', files: ['src/pricing/discount.ts'], symbols: ['applyDiscount'] }),
      'this line is not json',
    ].join('\n'));
    const r = runCli(['eval', file, '--root', root]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /questions: 2 \(1 lines skipped\)/);
    assert.match(r.stdout, /recall@1: 1\.000/);
    assert.match(r.stdout, /MRR: 1\.000/);
    assert.match(r.stdout, /tokens per hit: \d+/);
    assert.match(r.stderr, /skipped line 3: not JSON/);
    const json = runCliJson<{ summary: { questions: number; mrr: number } }>(['eval', file, '--root', root]);
    assert.deepEqual({ q: json.json.summary.questions, mrr: json.json.summary.mrr }, { q: 2, mrr: 1 });
    assert.equal(runCli(['eval', '--root', root]).code, 2);
  });
});

describe('context with embeddings', () => {
  let server: FakeEmbeddings;
  before(async () => { server = await startFakeEmbeddings(); });
  after(async () => { await server.close(); });

  it('uses the endpoint given by flags and finds code by meaning', async () => {
    const r = await runCliAsync(['context', 'how is a person erased?', '--root', root, '--json', '--embeddings-url', server.baseUrl, '--embeddings-model', 'fake-concepts-1']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as ContextJson & { stats: { vectors: string } };
    assert.equal(json.stats.vectors, 'on');
    assert.equal(json.files[0]?.path, 'src/users/user_service.py');
    assert.ok(server.requests > 0);
  });

  it('needs both a URL and a model', () => {
    assert.equal(runCli(['context', 'x', '--root', root, '--embeddings-url', 'http://127.0.0.1:9/v1']).code, 2);
  });
});
