/**
 * `context-oracle ask` as a user runs it: the built CLI on the fixture workspace, extractive and through a fake
 * OpenAI-compatible server (the CLI is spawned asynchronously so the server in this process can answer it).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AskEvent, AskResult } from '../../src/core/oracle/types';
import { runCli, runCliJson, runCliAsync } from '../helpers/cli';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import { makeOracleWorkspace } from '../helpers/oracle-workspace';
import { cacheDirOf, removeWorkspace } from '../helpers/workspace';

let root: string;
let fake: FakeOpenAI;

before(async () => {
  root = makeOracleWorkspace();
  assert.equal(runCli(['index', '--root', root]).code, 0);
  fake = await startFakeOpenAI({ apiKey: 'sk-cli', delayMs: 15, reply: () => 'According to the evidence, createGreeter lives in src/greeter.ts [1].' });
});
after(async () => {
  await fake.close();
  removeWorkspace(root);
});

describe('context-oracle ask', () => {
  it('answers with citations as text, and as JSON with --json', () => {
    const text = runCli(['ask', 'Where is createGreeter defined?', '--root', root, '--no-log']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^`createGreeter` is defined at `src\/greeter\.ts:12-\d+` \[1\]\./);
    assert.match(text.stdout, /Sources searched: code \(\d+\); docs \(\d+\); git \(\d+\); threads \(\d+\)\./);
    const json = runCliJson<AskResult>(['ask', 'Where is createGreeter used?', '--root', root, '--no-log']);
    assert.equal(json.code, 0);
    assert.equal(json.json.analysis.kind, 'references');
    assert.ok(json.json.citations.some((c) => c.path === 'src/server.ts'));
  });

  it('streams events as NDJSON with --events, evidence before the answer', () => {
    const r = runCli(['ask', 'How are failed deliveries retried?', '--root', root, '--no-log', '--events']);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as AskEvent);
    const types = events.map((e) => e.type);
    assert.ok(types.indexOf('evidence') >= 0 && types.indexOf('evidence') < types.indexOf('answer'));
    assert.equal(types.at(-1), 'done');
  });

  it('says so honestly when nothing is relevant', () => {
    const r = runCli(['ask', 'What is the meaning of life?', '--root', root, '--no-log']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^No relevant project context found/);
  });

  it('reads the question from --question-file and logs the exchange with --author', () => {
    const file = join(root, 'q.json');
    writeFileSync(file, JSON.stringify({ question: 'Where is "backoffDelay" defined?' }));
    const r = runCliJson<AskResult>(['ask', '--question-file', file, '--root', root, '--author', 'agent-cli']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.citations[0]?.path, 'src/delivery.ts');
    assert.ok(r.json.loggedTo!.startsWith(cacheDirOf(root)), `session logs go to the cache folder: ${r.json.loggedTo}`);
    const log = readFileSync(r.json.loggedTo!, 'utf8');
    assert.match(log, /· agent-cli · Where is "backoffDelay" defined\?/);
  });

  it('reads a plain-text --question-file as context does, the same question as given in the arguments', () => {
    const file = join(root, 'q.txt');
    writeFileSync(file, 'Where is createGreeter defined?\n');
    const fromFile = runCliJson<AskResult>(['ask', '--question-file', file, '--root', root, '--no-log']);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const fromArgs = runCliJson<AskResult>(['ask', 'Where is createGreeter defined?', '--root', root, '--no-log']);
    assert.equal(fromFile.json.question, 'Where is createGreeter defined?');
    assert.deepEqual(fromFile.json.citations, fromArgs.json.citations);
  });

  it('rejects bad usage with exit 2', () => {
    assert.equal(runCli(['ask', '--root', root]).code, 2, 'no question');
    assert.equal(runCli(['ask', 'x', '--source', 'wiki', '--root', root]).code, 2, 'unknown source');
    assert.equal(runCli(['ask', 'x', '--model', 'm', '--root', root]).code, 2, '--model without --model-url');
    assert.equal(runCli(['ask', 'x', '--model', 'm', '--model-url', 'ftp://x', '--root', root]).code, 2, 'not an http URL');
    assert.equal(runCli(['ask', '--question-file', join(root, 'missing.json'), '--root', root]).code, 2);
  });

  it('streams a model\'s answer through an OpenAI-compatible endpoint, citations appended', async () => {
    const r = await runCliAsync(['ask', 'Where is createGreeter defined?', '--root', root, '--no-log',
      '--model', 'fake-gpt', '--model-url', fake.baseUrl, '--api-key-env', 'CO_CLI_KEY'], { env: { CO_CLI_KEY: 'sk-cli' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^According to the evidence, createGreeter lives in src\/greeter\.ts \[1\]\.\n\nSources:\n\[1\] src\/greeter\.ts:12-\d+/);
    assert.ok(r.chunks.length > 1, 'the answer reached stdout in several writes');
    assert.equal(fake.requests.length, 1);
    assert.equal(fake.requests[0]!.body.stream, true);
  });
});
