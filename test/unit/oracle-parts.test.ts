/**
 * The oracle's parts on their own: question analysis, the SSE reader, markdown sections, lexical relevance,
 * citation checks against changed files, settings validation and the conversation store.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sseData } from '../../src/core/llm/sse';
import { oracleAnalysis } from '../../src/core/oracle/analyse';
import { analyseQuestion as analyse } from '../../src/core/question/analysis';

/** The oracle's view of a question, as ask() makes it. */
const analyseQuestion = (q: string, hint?: { subject?: string }) => oracleAnalysis(analyse(q), hint);
import { asksAboutPastSessions } from '../../src/core/oracle/ask';
import { verifyEvidence } from '../../src/core/oracle/citations';
import { createConversationStore, extractiveSummariser, type Summariser } from '../../src/core/oracle/conversation';
import { createFileCache } from '../../src/core/oracle/file-cache';
import { coverage, stem, termWeights, vocabulary } from '../../src/core/oracle/lexical';
import { splitMarkdown } from '../../src/core/oracle/markdown';
import { parseSettings } from '../../src/core/oracle/settings';
import type { Evidence } from '../../src/core/oracle/types';
import { nodeFileSystem } from '../../src/node/file-system';
import { makeOracleWorkspace } from '../helpers/oracle-workspace';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

describe('question analysis', () => {
  const cases: [string, string, string | undefined][] = [
    ['Where is createGreeter defined?', 'definition', 'createGreeter'],
    ['Where is TypedValueParser defined?', 'definition', 'TypedValueParser'],
    ['Where is the function parse_args defined?', 'definition', 'parse_args'],
    ['What is `UserService`?', 'definition', 'UserService'],
    ['definition of auth.service.login', 'definition', 'auth.service.login'],
    ['Where is createGreeter used?', 'references', 'createGreeter'],
    ['Who calls parse_args?', 'references', 'parse_args'],
    ['What changed recently in the delivery code?', 'change', undefined],
    ['Why was the retry backoff capped?', 'change', undefined],
    ['What should formatGreeting return for an empty name?', 'behaviour', 'formatGreeting'],
    ['How does the welcome flow work?', 'conceptual', undefined],
    ['What is the meaning of life?', 'conceptual', undefined],
  ];
  for (const [q, kind, subject] of cases) {
    it(`${q} → ${kind}${subject ? ` about ${subject}` : ''}`, () => {
      const a = analyseQuestion(q);
      assert.equal(a.kind, kind);
      assert.equal(a.subject, subject);
    });
  }
  it('drops question and intent words from the terms', () => {
    assert.deepEqual(analyseQuestion('Where is the retry delay used?').terms, ['retry', 'delay']);
    assert.equal(analyseQuestion('What should happen when a test fails?').boostTests, true);
  });
  it('takes a follow-up\'s subject from the conversation only when the question points back', () => {
    assert.equal(analyseQuestion('Where is it used?', { subject: 'Greeter' }).subject, 'Greeter');
    assert.equal(analyseQuestion('How does delivery work?', { subject: 'Greeter' }).subject, undefined);
  });
});

describe('server-sent events', () => {
  async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
    for (const p of parts) yield new TextEncoder().encode(p);
  }
  it('reads data lines split across chunks, CRLF, comments and multi-line data', async () => {
    const got: string[] = [];
    for await (const d of sseData(chunks(': keep-alive\n\nda', 'ta: {"a":1}\r\n\r\ndata: one\ndata: two\n\n', 'event: x\ndata: [DONE]\n\n'))) got.push(d);
    assert.deepEqual(got, ['{"a":1}', 'one\ntwo', '[DONE]']);
  });
  it('keeps a multi-byte character split across chunks whole', async () => {
    const bytes = new TextEncoder().encode('data: café\n\n');
    const got: string[] = [];
    for await (const d of sseData((async function* () { yield bytes.slice(0, 10); yield bytes.slice(10); })())) got.push(d);
    assert.deepEqual(got, ['café']);
  });
});

describe('markdown sections', () => {
  it('splits at headings outside fenced code, with trails and line ranges', () => {
    const lines = ['intro text', '# Guide', 'a', '```', '# not a heading', '```', '## Setup', 'b', ''];
    const s = splitMarkdown(lines);
    assert.deepEqual(s.map((x) => [x.trail || x.heading, x.line, x.endLine]), [['intro text', 1, 1], ['Guide', 2, 6], ['Guide › Setup', 7, 9]]);
  });
});

describe('lexical relevance', () => {
  it('stems inflections together', () => {
    assert.equal(stem('retried'), stem('retry'));
    assert.equal(stem('deliveries'), stem('delivery'));
    assert.equal(stem('formatted'), stem('format'));
  });
  it('weighs rare words more and scores coverage in 0..1', () => {
    const tw = termWeights(['get', 'backoff'], { get: 90, backoff: 2 }, 100);
    const withRare = coverage(vocabulary('backoffDelay(attempt)'), tw);
    const withCommon = coverage(vocabulary('getUser()'), tw);
    assert.ok(withRare > 0.7 && withCommon < 0.3, `${withRare} vs ${withCommon}`);
    assert.equal(coverage(vocabulary('nothing here'), tw), 0);
  });
});

describe('citation checks against the file on disk', () => {
  it('follows text that moved and drops text that is gone', async () => {
    const root = makeWorkspace({ 'a.ts': 'line one\nexport function target() {}\nline three\n' });
    roots.push(root);
    const e = (line: number, quote: string): Evidence => ({ key: 'k', source: 'code', method: 'fulltext', path: 'a.ts', line, endLine: line, title: 't', text: '', relevance: 1, score: 1, reason: 'r', meta: { quote } });
    assert.deepEqual(await verifyEvidence(createFileCache(root, nodeFileSystem), e(2, 'export function target')), { ok: true });
    writeFileSync(join(root, 'a.ts'), 'new\nnew\nline one\nexport function target() {}\n');
    const moved = e(2, 'export function target');
    assert.deepEqual(await verifyEvidence(createFileCache(root, nodeFileSystem), moved), { ok: true, moved: 2 });
    assert.equal(moved.line, 4);
    const gone = await verifyEvidence(createFileCache(root, nodeFileSystem), e(2, 'function vanished'));
    assert.equal(gone.ok, false);
    assert.equal((await verifyEvidence(createFileCache(root, nodeFileSystem), e(99, ''))).ok, false, 'a line past the end');
  });

  it('cites where a definition is now when the file changed after indexing', async () => {
    const root = makeOracleWorkspace({ git: false });
    roots.push(root);
    const engine = testEngine(root);
    try {
      await engine.index();
      const path = join(root, 'src/greeter.ts');
      const { readFileSync } = await import('node:fs');
      writeFileSync(path, `// one\n// two\n// three\n${readFileSync(path, 'utf8')}`);
      const r = await engine.askAll('Where is createGreeter defined?', { model: null, log: false, explain: true });
      const first = r.citations[0]!;
      assert.equal(first.path, 'src/greeter.ts');
      assert.equal(first.line, 15, 'three lines lower than indexed');
      assert.match(first.quote, /export function createGreeter/);
      assert.deepEqual(r.explain!.index.staleFiles, ['src/greeter.ts']);
    } finally {
      await engine.dispose();
    }
  });
});

describe('oracle settings', () => {
  it('accepts a model that names its key variable and rejects mistakes', () => {
    assert.deepEqual(parseSettings({ model: { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'KEY' } }).model, { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'KEY' });
    const invalid = (v: unknown): void => assert.throws(() => parseSettings(v), (e: Error & { code?: string }) => e.code === 'invalid_input');
    invalid([]);
    invalid({ docsFolders: 'docs' });
    invalid({ model: { baseUrl: 'localhost', model: 'm' } });
    invalid({ model: { baseUrl: 'http://x', model: 'm', apiKeyEnv: 'sk-live-abc' } });
  });
});

describe('conversation store', () => {
  it('summarises only on read, above the threshold, keeping the last N verbatim, cached and extended', async () => {
    let t = 0;
    const store = createConversationStore({ budget: 100, keepRecent: 2, now: () => ++t });
    let calls = 0;
    const counting: Summariser = async (prev, xs) => { calls++; return extractiveSummariser(prev, xs); };
    const big = 'word '.repeat(30);
    for (let i = 1; i <= 4; i++) store.record('s', { tool: 'ask_oracle', input: `question ${i}`, output: big, files: [`f${i}.ts`] });
    assert.equal(calls, 0, 'nothing summarised on write');
    const v = (await store.read('s', counting))!;
    assert.equal(calls, 1);
    assert.deepEqual(v.summary!.covers, { from: 1, to: 2 });
    assert.deepEqual(v.recent.map((x) => x.id), [3, 4]);
    assert.match(v.summary!.text, /#1 ask_oracle: question 1 .*\[f1\.ts\]/);
    await store.read('s', counting);
    assert.equal(calls, 1, 'cached');
    store.record('s', { tool: 'find_definition', input: 'x', output: big });
    const v2 = (await store.read('s', counting))!;
    assert.equal(calls, 2, 'extended when new exchanges pass the threshold');
    assert.deepEqual(v2.summary!.covers, { from: 1, to: 3 });
    assert.match(v2.summary!.text, /question 1[\s\S]*question 3/);
    assert.equal(await store.read('other', counting), undefined);
  });

  it('keeps a session across processes: the next store takes it up, and one that recorded first goes on after it', async () => {
    const files = new Map<string, string>();
    const persist = { read: async (n: string) => files.get(n), write: async (n: string, t: string) => { files.set(n, t); } };
    let t = 0;
    const first = createConversationStore({ now: () => ++t, persist });
    first.record('s', { tool: 'ask_oracle', input: 'Where is backoffDelay defined?', output: 'in src/delivery.ts', symbols: ['backoffDelay'] });
    first.record('other', { tool: 'ask_oracle', input: 'x', output: 'y' });
    await first.saved('s');
    await first.saved('other');
    // A new process (CLI run, restarted MCP server) that reads before it records.
    const second = createConversationStore({ now: () => ++t, persist });
    await second.load('s');
    assert.equal(second.lastSubject('s'), 'backoffDelay');
    // One that records first (an MCP tool call right after a restart) keeps the stored exchanges ahead of its own.
    const third = createConversationStore({ now: () => ++t, persist });
    third.record('s', { tool: 'find_definition', input: 'symbol=sleep', output: '1 result', symbols: ['sleep'] });
    await third.saved('s');
    const view = (await third.read('s', extractiveSummariser))!;
    assert.deepEqual(view.recent.map((x) => [x.id, x.tool]), [[1, 'ask_oracle'], [2, 'find_definition']]);
    const fourth = createConversationStore({ now: () => ++t, persist });
    await fourth.load('s');
    assert.equal((await fourth.read('s', extractiveSummariser))!.exchanges, 2);
    assert.equal(files.size, 2, 'one file per session');
  });
});

it('only a question about past sessions reads the oracle\'s own session logs; code questions about sessions do not', () => {
  for (const q of ['What did the earlier session answer about the retry cap?', 'what did you say last time about retries?',
    'Show the previous answer on billing', 'in our past sessions, where did we put the cache?', 'What was previously asked about auth?'])
    assert.equal(asksAboutPastSessions(q), true, q);
  for (const q of ['where is the session token checked?', 'how does the session store expire sessions?', 'which handler runs earlier in the chain?',
    'how is SessionManager created?'])
    assert.equal(asksAboutPastSessions(q), false, q);
});
