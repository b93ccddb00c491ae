/**
 * Secrets in answers, as a user and an agent meet them: a workspace whose tracked source holds a (fake) AWS key pair
 * and a private key. `context`, `ask` and `search` through the built CLI and `get_context` over MCP show none of
 * it, `--explain` says how many secrets were redacted, and `--no-redact` shows the code as it is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { FAKE, LEAKED, leakySource, PEM_LINES } from '../helpers/fake-secrets';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';
import { call, serve } from './mcp-harness';

const QUESTION = 'where are ARCHIVE_ACCESS_KEY_ID and ARCHIVE_SIGNING_KEY used for uploadInvoiceArchive?';
const leaks = (text: string): string[] => LEAKED.filter((s) => text.includes(s));

let root: string;
before(() => {
  root = makeWorkspace({
    'src/archive.ts': leakySource(),
    'src/invoice.ts': "import { uploadInvoiceArchive } from './archive';\n\nexport function closeInvoice(id: string): string {\n  return uploadInvoiceArchive(id);\n}\n",
  });
  const r = runCli(['index', '--root', root]);
  assert.equal(r.code, 0, r.stderr);
});
after(() => removeWorkspace(root));

describe('secrets in CLI output', () => {
  it('context: no secret in the text, the JSON or the explain, and --explain counts them', () => {
    const r = runCli(['context', QUESTION, '--root', root, '--explain']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('ARCHIVE_SIGNING_KEY'), r.stdout);
    assert.deepEqual(leaks(r.stdout), []);
    assert.match(r.stdout, /AKIA…\[redacted aws-access-key\]/);
    assert.match(r.stdout, /-- explain: secrets redacted: 2 --/);
    const json = runCli(['context', QUESTION, '--root', root, '--json']);
    assert.deepEqual(leaks(json.stdout), []);
    assert.equal((JSON.parse(json.stdout) as { stats: { redacted: number } }).stats.redacted, 2);
  });

  it('context keeps file:line citations: the private key is redacted line for line', () => {
    const r = runCli(['context', QUESTION, '--root', root, '--format', 'markdown']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    const begin = lines.findIndex((l) => l.includes('export const ARCHIVE_SIGNING_KEY'));
    assert.ok(begin >= 0, r.stdout);
    assert.deepEqual(lines.slice(begin + 1, begin + 1 + PEM_LINES.length).map((l) => l.trim()), PEM_LINES.map(() => '…[redacted private-key]'));
    assert.match(lines[begin + 1 + PEM_LINES.length]!, /-----END RSA PRIVATE KEY-----`;/);
  });

  it('ask: the answer, evidence and citations hold no secret; --explain counts them', () => {
    const r = runCli(['ask', 'Where is ARCHIVE_ACCESS_KEY_ID defined?', '--root', root, '--no-log', '--no-model', '--source', 'code', '--explain']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('src/archive.ts'), r.stdout);
    assert.deepEqual(leaks(r.stdout), []);
    assert.match(r.stdout, /secrets redacted: [1-9]/);
    const json = runCli(['ask', 'Where is ARCHIVE_ACCESS_KEY_ID defined?', '--root', root, '--no-log', '--no-model', '--source', 'code', '--explain', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(leaks(json.stdout), []);
    const result = JSON.parse(json.stdout) as { evidence: unknown[]; explain: { redacted: number } };
    assert.ok(result.evidence.length > 0);
    assert.ok(result.explain.redacted >= 1, json.stdout.slice(0, 400));
  });

  it('search: snippets hold no secret', () => {
    for (const args of [['search', 'ARCHIVE_ACCESS_KEY_ID'], ['search', 'ARCHIVE_SIGNING_KEY', '--json']]) {
      const r = runCli([...args, '--root', root]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.includes('src/archive.ts'), r.stdout);
      assert.deepEqual(leaks(r.stdout), [], r.stdout);
    }
  });

  it('--no-redact shows the code as it is and says so in --explain', () => {
    const r = runCli(['context', QUESTION, '--root', root, '--explain', '--no-redact']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(FAKE.awsAccessKey));
    assert.ok(r.stdout.includes(PEM_LINES[0]!));
    assert.match(r.stdout, /-- explain: secrets: not redacted \(--no-redact\) --/);
    const search = runCli(['search', 'ARCHIVE_ACCESS_KEY_ID', '--root', root, '--no-redact']);
    assert.ok(search.stdout.includes(FAKE.awsAccessKey), search.stdout);
  });
});

describe('secrets over MCP', () => {
  it('get_context answers hold no secret; with --no-redact they do', async () => {
    for (const [extra, redacted] of [[[], true], [['--no-redact'], false]] as const) {
      const served = await serve(root, [...extra]);
      try {
        const r = await call(served.client, 'get_context', { question: QUESTION, max_tokens: 4000 });
        assert.equal(r.isError, false, r.texts.join('\n'));
        const all = r.texts.join('\n');
        assert.ok(all.includes('ARCHIVE_SIGNING_KEY'), all);
        if (redacted) assert.deepEqual(leaks(all), []);
        else assert.ok(all.includes(FAKE.awsAccessKey));
      } finally {
        await served.close();
      }
    }
  });
});
