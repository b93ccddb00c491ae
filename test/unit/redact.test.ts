/**
 * Secret redaction (src/core/redact): each shape is replaced by a readable stand-in and its look-alikes and
 * placeholders are kept; line counts never change; a 1 MB hostile input takes well under a second; and through the
 * engine, every result a host gets and every prompt a model gets is redacted unless `redactSecrets` is off.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { redactSecrets } from '../../src/core/redact/secrets';
import { redactValue } from '../../src/core/redact/redacting-engine';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import { FAKE, LEAKED, leakySource, noise, PEM_BEGIN, PEM_BLOCK, PEM_END, PEM_LINES } from '../helpers/fake-secrets';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const redact = (text: string): string => redactSecrets(text).text;
const lineCount = (text: string): number => text.split('\n').length;

/** `text` redacted: the secret is gone, the stand-in is there, the lines are as many as before. */
function assertRedacted(text: string, secret: string, standIn: string): void {
  const out = redact(text);
  assert.ok(!out.includes(secret), `still holds the secret: ${out}`);
  assert.ok(out.includes(standIn), `no "${standIn}" in: ${out}`);
  assert.equal(lineCount(out), lineCount(text));
}

describe('secret shapes', () => {
  it('redacts AWS access key ids, keeping the prefix', () => {
    assertRedacted(`const id = "${FAKE.awsAccessKey}";`, FAKE.awsAccessKey, 'AKIA…[redacted aws-access-key]');
    assertRedacted(`AWS_ACCESS_KEY_ID=${FAKE.awsSessionKey}`, FAKE.awsSessionKey, 'ASIA…[redacted aws-access-key]');
  });
  it('redacts an AWS secret key only after a secret-key name', () => {
    assertRedacted(`aws_secret_access_key = ${FAKE.awsSecretKey}`, FAKE.awsSecretKey, 'aws_secret_access_key = …[redacted aws-secret-key]');
    assertRedacted(`{ "SecretAccessKey": "${FAKE.awsSecretKey}" }`, FAKE.awsSecretKey, '"SecretAccessKey": "…[redacted aws-secret-key]"');
    const plain = `const digest = ${FAKE.awsSecretKey};`;
    assert.equal(redact(plain), plain, '40 base64 characters alone are not a key');
  });
  it('redacts GCP, GitHub, GitLab, Slack, Stripe, OpenAI and Anthropic keys', () => {
    assertRedacted(`key: '${FAKE.gcpKey}'`, FAKE.gcpKey, 'AIza…[redacted gcp-api-key]');
    assertRedacted(`token ${FAKE.githubToken}`, FAKE.githubToken, 'ghp_…[redacted github-token]');
    assertRedacted(`token ${FAKE.githubPat}`, FAKE.githubPat, 'github_pat_…[redacted github-token]');
    assertRedacted(`GITLAB=${FAKE.gitlabToken}`, FAKE.gitlabToken, 'glpat-…[redacted gitlab-token]');
    assertRedacted(`slack(${FAKE.slackToken})`, FAKE.slackToken, 'xoxb-…[redacted slack-token]');
    assertRedacted(`stripe = ${FAKE.stripeKey}`, FAKE.stripeKey, 'sk_live_…[redacted stripe-key]');
    assertRedacted(`OPENAI=${FAKE.openaiKey}`, FAKE.openaiKey, 'sk-…[redacted openai-key]');
    assertRedacted(`OPENAI=${FAKE.openaiProjectKey}`, FAKE.openaiProjectKey, 'sk-proj-…[redacted openai-key]');
    assertRedacted(`ANTHROPIC=${FAKE.anthropicKey}`, FAKE.anthropicKey, 'sk-ant-…[redacted anthropic-key]');
  });
  it('redacts JWTs', () => {
    assertRedacted(`Authorization: Bearer ${FAKE.jwt}`, FAKE.jwt, 'Bearer eyJ…[redacted jwt]');
  });
  it('redacts the password of a connection string, keeping scheme, user and host', () => {
    const url = `postgres://app:${FAKE.dbPassword}@db.internal:5432/shop`;
    assert.equal(redact(`const DB = "${url}";`), 'const DB = "postgres://app:…[redacted password]@db.internal:5432/shop";');
  });
  it('redacts random-looking literals assigned to password, secret, token and api_key names', () => {
    assertRedacted(`password = "${FAKE.genericSecret}"`, FAKE.genericSecret, 'password = "…[redacted secret]"');
    assertRedacted(`  clientSecret: '${FAKE.genericSecret}',`, FAKE.genericSecret, "clientSecret: '…[redacted secret]'");
    assertRedacted(`API_KEY="${FAKE.genericSecret}"`, FAKE.genericSecret, 'API_KEY="…[redacted secret]"');
    assertRedacted(`{"auth_token": "${FAKE.genericSecret}"}`, FAKE.genericSecret, '"auth_token": "…[redacted secret]"');
    const symbols = 'p@ss!Word#Xy'; // no digit, but symbols that do not separate words
    assertRedacted(`secret = '${symbols}'`, symbols, "secret = '…[redacted secret]'");
  });
  it('redacts a PEM private key line for line, keeping the markers', () => {
    const text = `const key = \`${PEM_BLOCK}\`;\nnext();`;
    const out = redact(text);
    assert.equal(lineCount(out), lineCount(text));
    for (const l of PEM_LINES) assert.ok(!out.includes(l));
    assert.equal(out, `const key = \`${PEM_BEGIN}\n${PEM_LINES.map(() => '…[redacted private-key]').join('\n')}\n${PEM_END}\`;\nnext();`);
    assert.equal(redactSecrets(text).found.length, 1, 'one block, one secret');
  });
  it('redacts a PEM key written on one line with \\n escapes, and blocks cut off at either end', () => {
    const oneLine = `key: "${PEM_BEGIN}\\n${PEM_LINES.join('\\n')}\\n${PEM_END}\\n"`;
    const out = redact(oneLine);
    for (const l of PEM_LINES) assert.ok(!out.includes(l), out);
    assert.ok(out.includes(`${PEM_BEGIN}\\n…[redacted private-key]\\n`), out);
    const head = [PEM_BEGIN, ...PEM_LINES.slice(0, 2)].join('\n'); // a snippet that ends inside the block
    const tail = [`  "${PEM_LINES[2]}\\n" +`, `  "${PEM_LINES[3]}\\n" +`, `  "${PEM_END}"`].join('\n'); // one that starts inside
    for (const cut of [head, tail]) {
      const r = redact(cut);
      assert.equal(lineCount(r), lineCount(cut));
      for (const l of PEM_LINES) assert.ok(!r.includes(l), r);
    }
  });
  it('keeps look-alikes and placeholders', () => {
    const kept = [
      `AKIA${'ABCDEFGHIJKLMNO'}`, // 15 characters, not 16
      `XAKIA${FAKE.awsAccessKey.slice(4)}`, // part of a longer word
      'const id = "akia' + FAKE.awsAccessKey.slice(4).toLowerCase() + '";',
      'AI' + 'za' + noise(20), 'gh' + 'p_' + noise(20), 'sk' + '-' + noise(20), 'sk' + '-' + 'a'.repeat(40), 'xo' + 'xb-123',
      'eyJhbGciOiJIUzI1NiJ9.payload.sig', // no second eyJ
      'password = "changeme"', 'password = "${DB_PASSWORD}"', 'api_key = "<your-api-key>"', 'token = "xxxxxxxxxxxx"',
      'secret: "********"', 'password = "short1"', 'token_type = "refresh_token"', 'TOKEN = "SESSION_TOKEN_V2"',
      'ACQUIRE_TOKEN_START: "msal:acquireTokenStart"', 'FLOW_PASSWORD_REQUIRED = "FlowPasswordRequiredResultV2"',
      'TokenByCode = "acquireTokenByCode"', 'TOKEN_TO_REFRESH: "token_sha256_to_refresh"', 'SIGN_UP_PASSWORD = "FlowSignUpPasswordRequiredV2"', 'secret = "hQpXzLmRtYvKwNsBcDfG"', 'AK' + 'IAIOSFODNN7' + 'EXAMPLE',
      "new URL('https://abc:xyz@example.com')",
      'tokenUrl = "https://auth.example.com/oauth2/token"', 'password: string = input;', 'const apiKeyHeader = "x-api-key";',
      'postgres://user:password@localhost/db', 'redis://:${REDIS_PASSWORD}@cache:6379', 'https://example.com/a:b@c',
      '-----BEGIN PUBLIC KEY-----\n' + noise(64) + '\n-----END PUBLIC KEY-----',
    ];
    for (const text of kept) assert.equal(redact(text), text, text);
  });
  it('takes well under a second on 1 MB of hostile input', () => {
    const pieces = [
      'AKIA' + 'A'.repeat(15) + ' ', 'eyJ' + 'a'.repeat(30) + '.eyJ', 'eyJ', 'sk-', 'ghp_', 'xoxb-', 'AIza',
      'password = "', 'secret:"' + 'x'.repeat(300), 'ab://u:', 'ab://' + 'u'.repeat(150), 'p'.repeat(45) + 'password',
      '-----BEGIN RSA PRIVATE KEY-----\n', '-----END PRIVATE KEY-----', 'aws_secret_access_key=' + 'A'.repeat(39) + ' ',
    ];
    const hostile: string[] = [];
    let size = 0;
    for (let i = 0; size < 1_000_000; i++) {
      const p = pieces[i % pieces.length]!;
      hostile.push(p);
      size += p.length;
    }
    const runs = [hostile.join(''), 'a'.repeat(1_000_000), 'eyJ'.repeat(333_334), 'a-'.repeat(500_000), 'password '.repeat(111_112),
      'x'.repeat(1_000_000).replace(/x{64}/g, (m) => `${m}\n`)];
    for (const text of runs) {
      const t0 = performance.now();
      const out = redactSecrets(text);
      const ms = performance.now() - t0;
      assert.ok(ms < 1000, `${ms.toFixed(0)} ms on ${text.slice(0, 30)}…`);
      assert.equal(lineCount(out.text), lineCount(text));
    }
  });
});

describe('redacting engine data', () => {
  it('walks plain data, shares what did not change and counts distinct secrets', () => {
    const untouched = { path: 'src/a.ts', lines: [1, 2] };
    const data = { hits: [{ text: `k = "${FAKE.awsAccessKey}"` }, { text: FAKE.awsAccessKey }], untouched, when: new Date(0) };
    const tally = new Set<string>();
    const out = redactValue(data, tally);
    assert.equal(tally.size, 1);
    assert.ok(!JSON.stringify(out).includes(FAKE.awsAccessKey));
    assert.equal(out.untouched, untouched);
    assert.equal(out.when, data.when);
    assert.ok(JSON.stringify(data).includes(FAKE.awsAccessKey), 'the input is not changed');
  });
});

describe('the engine with a leaked key in a tracked file', () => {
  let root: string;
  let engine: Engine;
  let open: Engine;
  let fake: FakeOpenAI;
  const holdsSecret = (value: unknown): boolean => LEAKED.some((s) => JSON.stringify(value).includes(s));
  before(async () => {
    fake = await startFakeOpenAI();
    root = makeWorkspace({ 'src/archive.ts': leakySource() });
    engine = testEngine(root);
    open = testEngine(root, { redactSecrets: false });
    await engine.index();
  });
  after(async () => {
    await engine.dispose();
    await open.dispose();
    await fake.close();
    removeWorkspace(root);
  });

  it('redacts search hits, definitions, the repo map and smart context, and counts what it redacted', async () => {
    assert.ok(!holdsSecret(await engine.search('ARCHIVE_ACCESS_KEY_ID')));
    assert.ok(!holdsSecret(await engine.definitions('ARCHIVE_SIGNING_KEY')));
    assert.ok(!holdsSecret(await engine.repoMap()));
    const context = await engine.getContextForQuestion('where are ARCHIVE_ACCESS_KEY_ID and ARCHIVE_SIGNING_KEY used for uploadInvoiceArchive?', { maxTokens: 4000 });
    assert.ok(context.text.includes('ARCHIVE_SIGNING_KEY'), context.text);
    assert.ok(!holdsSecret(context), context.text);
    assert.ok(context.text.includes('…[redacted private-key]'), context.text);
    // The access key and the private key (shown twice: in the signature line and in the code); the secret key's line is not shown.
    assert.equal(context.stats.redacted, 2, context.text);
  });

  it('redacts the answer, its evidence, the explain count and the session log of ask', async () => {
    const r = await engine.askAll('Where is ARCHIVE_ACCESS_KEY_ID defined?', { model: null, explain: true, sources: ['code'] });
    assert.ok(r.evidence.length > 0);
    assert.ok(r.answer.includes('AKIA…[redacted aws-access-key]'), r.answer);
    assert.ok(!holdsSecret(r), r.answer);
    assert.ok((r.explain?.redacted ?? 0) >= 1);
    const log = readFileSync(r.loggedTo!, 'utf8');
    assert.ok(log.includes('AKIA…[redacted aws-access-key]'), log);
    assert.ok(!holdsSecret(log), log);
  });

  it('redacts the prompt sent to a model', async () => {
    const model = { baseUrl: fake.baseUrl, model: 'fake-gpt' };
    const r = await engine.askAll('Where is ARCHIVE_SIGNING_KEY defined and what does it hold?', { model, log: false, sources: ['code'] });
    assert.equal(r.mode, 'model');
    const prompt = fake.requests.at(-1)!.body;
    assert.ok(JSON.stringify(prompt).includes('ARCHIVE_SIGNING_KEY'));
    assert.ok(!holdsSecret(prompt), JSON.stringify(prompt));
  });

  it('with redactSecrets off, shows the code as it is and counts nothing', async () => {
    const context = await open.getContextForQuestion('where are ARCHIVE_ACCESS_KEY_ID and ARCHIVE_SIGNING_KEY used for uploadInvoiceArchive?', { maxTokens: 4000 });
    assert.ok(context.text.includes(FAKE.awsAccessKey));
    assert.equal(context.stats.redacted, undefined);
    await open.askAll('Where is ARCHIVE_SIGNING_KEY defined and what does it hold?', { model: { baseUrl: fake.baseUrl, model: 'fake-gpt' }, log: false, sources: ['code'] });
    assert.ok(holdsSecret(fake.requests.at(-1)!.body));
  });
});
