/**
 * The oracle with a model: a fake OpenAI-compatible server on 127.0.0.1 (real wire protocol, SSE streaming) stands
 * in for the remote endpoint. Streaming, citations carried by the answer, no call when nothing is relevant,
 * fallbacks, and the shared conversation compressed lazily (on read, never on write) and cached.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import type { AskEvent, ModelSettings } from '../../src/core/oracle/types';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import { makeOracleWorkspace } from '../helpers/oracle-workspace';
import { removeWorkspace, testEngine } from '../helpers/workspace';

const KEY_ENV = 'CONTEXT_ORACLE_TEST_KEY';
let root: string;
let engine: Engine;
let fake: FakeOpenAI;
let model: ModelSettings;

const LONG = 'The greeter is built by createGreeter [1] and delivered with retries [2]. '.repeat(60);

before(async () => {
  process.env[KEY_ENV] = 'sk-test-123';
  fake = await startFakeOpenAI({
    apiKey: 'sk-test-123',
    reply: (req) => {
      if (req.messages[0]!.content.startsWith('Compress')) return '- summary: createGreeter in src/greeter.ts:12';
      const last = req.messages[req.messages.length - 1]!.content;
      if (last.includes('Question: Tell me at length')) return LONG;
      // A model that invents citation numbers: [99] and [42] match no evidence, [1] does.
      if (last.includes('Question: Who calls createGreeter?')) return 'createGreeter is defined in src/greeter.ts [1] and called from main [99]; see also [1, 42].';
      return 'createGreeter is defined in src/greeter.ts [1]; src/server.ts calls it [2].';
    },
  });
  model = { baseUrl: fake.baseUrl, model: 'fake-gpt', apiKeyEnv: KEY_ENV };
  root = makeOracleWorkspace({ git: false });
  engine = testEngine(root);
  await engine.index();
});
after(async () => {
  await engine.dispose();
  await fake.close();
  removeWorkspace(root);
  delete process.env[KEY_ENV];
});

const chatRequests = (): FakeOpenAI['requests'] => fake.requests.filter((r) => !r.body.messages[0]!.content.startsWith('Compress'));
const summaryRequests = (): FakeOpenAI['requests'] => fake.requests.filter((r) => r.body.messages[0]!.content.startsWith('Compress'));

describe('oracle with an OpenAI-compatible model', () => {
  it('streams the model\'s answer and the answer carries the citations', async () => {
    const before = fake.requests.length;
    const events: AskEvent[] = [];
    for await (const e of engine.ask('Where is createGreeter defined?', { model, log: false })) events.push(e);
    const done = events.at(-1) as Extract<AskEvent, { type: 'done' }>;
    const r = done.result;
    assert.equal(r.mode, 'model');
    assert.equal(r.model, 'fake-gpt');
    assert.equal(fake.requests.length, before + 1, 'one model call');
    const req = fake.requests.at(-1)!;
    assert.equal(req.body.stream, true);
    assert.equal(req.body.model, 'fake-gpt');
    assert.equal(req.authorization, 'Bearer sk-test-123', 'the key comes from the named environment variable');
    const prompt = req.body.messages.at(-1)!.content;
    assert.match(prompt, /Question: Where is createGreeter defined\?/);
    assert.match(prompt, /\[1\] src\/greeter\.ts:12-\d+ — defines function `createGreeter`: Builds a greeter/);
    assert.match(prompt, /export function createGreeter/);
    const deltas = events.filter((e) => e.type === 'answer');
    assert.ok(deltas.length > 5, `streamed in ${deltas.length} deltas`);
    assert.ok(events.findIndex((e) => e.type === 'evidence') < events.findIndex((e) => e.type === 'answer'), 'evidence first');
    assert.match(r.answer, /^createGreeter is defined in src\/greeter\.ts \[1\]/);
    assert.match(r.answer, /Sources:\n\[1\] src\/greeter\.ts:12-\d+/);
    assert.equal(r.citations[0]!.path, 'src/greeter.ts');
  });

  it('removes a citation number that matches no evidence, counts it and says so', async () => {
    const r = await engine.askAll('Who calls createGreeter?', { model, log: false });
    assert.equal(r.mode, 'model');
    assert.ok(r.citations.length < 42, `${r.citations.length} citations: 42 must be invented`);
    assert.equal(r.stats.inventedCitations, 2);
    assert.doesNotMatch(r.answer.split('(Removed')[0]!, /\[99\]|42\]/);
    assert.match(r.answer, /^createGreeter is defined in src\/greeter\.ts \[1\] and called from main ; see also \[1\]\./);
    assert.match(r.answer, /Removed 2 citations that match no evidence: \[99\], \[42\]/);
  });

  it('makes no model call when nothing relevant is found', async () => {
    const before = fake.requests.length;
    const r = await engine.askAll('What is the meaning of life?', { model, log: false });
    assert.equal(r.noContext, true);
    assert.match(r.answer, /no relevant project context found/i);
    assert.equal(fake.requests.length, before, 'the fake model server received no request');
  });

  it('falls back to the extractive answer when the endpoint fails, saying why', async () => {
    const failing = await startFakeOpenAI({ failWith: 500 });
    try {
      const r = await engine.askAll('Where is createGreeter defined?', { model: { baseUrl: failing.baseUrl, model: 'm' }, log: false });
      assert.equal(r.mode, 'extractive');
      assert.match(r.modelError!, /HTTP 500: The server had an error/);
      assert.match(r.answer, /The model could not answer: .*HTTP 500/);
      assert.match(r.answer, /`createGreeter` is defined at `src\/greeter\.ts:12/);
      assert.equal(failing.requests.length, 1);
    } finally {
      await failing.close();
    }
  });

  it('does not call the model when its API key variable is unset', async () => {
    const before = fake.requests.length;
    const r = await engine.askAll('Where is createGreeter defined?', { model: { ...model, apiKeyEnv: 'CONTEXT_ORACLE_UNSET_KEY' }, log: false });
    assert.equal(r.mode, 'extractive');
    assert.match(r.modelError!, /CONTEXT_ORACLE_UNSET_KEY .* is not set/);
    assert.equal(fake.requests.length, before);
  });
});

describe('shared conversation', () => {
  it('shows other tools\' exchanges to later calls of the same session', async () => {
    engine.rememberExchange('mcp-1', { tool: 'find_definition', input: 'backoffDelay', output: 'src/delivery.ts:11 function backoffDelay', symbols: ['backoffDelay'] });
    const r = await engine.askAll('Where is createGreeter defined?', { model, session: 'mcp-1', log: false });
    assert.equal(r.mode, 'model');
    const msgs = fake.requests.at(-1)!.body.messages;
    assert.ok(msgs.some((m) => m.role === 'user' && m.content === '[find_definition] backoffDelay'));
    assert.ok(msgs.some((m) => m.role === 'assistant' && m.content.includes('src/delivery.ts:11')));
  });

  it('resolves a follow-up ("where is it used?") to the earlier subject', async () => {
    await engine.askAll('Where is formatGreeting defined?', { model: null, session: 'follow', log: false });
    const r = await engine.askAll('Where is it used?', { model: null, session: 'follow', log: false });
    assert.equal(r.analysis.kind, 'references');
    assert.equal(r.analysis.subject, 'formatGreeting');
    assert.equal(r.analysis.subjectFromConversation, true);
    assert.ok(r.citations.some((c) => c.path === 'src/greeter.ts' && /formatGreeting\(salutation/.test(c.quote)));
  });

  it('compresses older exchanges lazily, on read, above 80 % of the budget, and caches the summary', async () => {
    const s = 'long-session';
    for (let i = 1; i <= 4; i++) await engine.askAll(`Tell me at length about createGreeter, part ${i}`, { model, session: s, log: false });
    // Four long answers (~1,000 tokens each) are over 80 % of the 4,000-token conversation budget, yet writing them
    // made no summary: compression waits for a read.
    const callsSoFar = chatRequests().length;
    const reads = summaryRequests().length;
    assert.equal(reads, 0, 'no summary on write');
    const view = await engine.conversation(s);
    assert.equal(summaryRequests().length, 1, 'one summary, made on read');
    assert.ok(view?.summary, 'older exchanges are summarised');
    assert.deepEqual(view.summary.covers, { from: 1, to: 1 });
    assert.equal(view.recent.length, 3, 'the last three stay verbatim');
    assert.match(view.summary.text, /createGreeter in src\/greeter\.ts:12/);
    const again = await engine.conversation(s);
    assert.equal(summaryRequests().length, 1, 'the cached summary is reused');
    assert.deepEqual(again?.summary, view.summary);
    // The next question sees the summary and the recent exchanges.
    await engine.askAll('Where is createGreeter defined?', { model, session: s, log: false });
    assert.equal(chatRequests().length, callsSoFar + 1);
    const msgs = chatRequests().at(-1)!.body.messages;
    assert.ok(msgs.some((m) => m.role === 'system' && m.content.startsWith('Earlier in this conversation (summary):')));
  });
});

describe('a model named by the workspace file', () => {
  it('is not asked, not even to compress the conversation, until the user approves it; the answer says why once', async () => {
    const settings = join(root, '.context-oracle/oracle.json');
    writeFileSync(settings, JSON.stringify({ model }));
    let trust = false;
    const e = testEngine(root, {}, undefined, { userModel: { current: () => ({ ...(trust ? { trustWorkspaceModel: true } : {}), approveHint: 'Approve it here.' }) } });
    try {
      const before = fake.requests.length;
      const first = await e.askAll('Where is createGreeter defined?', { session: 'ws', log: false });
      assert.equal(first.mode, 'extractive');
      assert.match(first.answer, /^\(Model not used: \.context-oracle\/oracle\.json asks for the model "fake-gpt" at http:\/\/127\.0\.0\.1:\d+\/v1 with the API key in \$CONTEXT_ORACLE_TEST_KEY, .* Approve it here\.\)/);
      const second = await e.askAll('Where is createGreeter defined?', { session: 'ws', log: false });
      assert.doesNotMatch(second.answer, /Model not used/, 'said once');
      assert.match(second.modelError!, /used only after you approve it/);
      await e.conversation('ws');
      assert.equal(fake.requests.length, before, 'the workspace\'s endpoint received nothing');
      trust = true;
      const approved = await e.askAll('Where is createGreeter defined?', { log: false });
      assert.equal(approved.mode, 'model');
      assert.equal(fake.requests.length, before + 1);
    } finally {
      await e.dispose();
      rmSync(settings);
    }
  });
});
