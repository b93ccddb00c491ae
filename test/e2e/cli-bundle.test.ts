/**
 * What every CLI process pays before it does anything is reading and compiling dist/cli.js. The tokenizer's tables
 * (2.9 MB) live in their own file, dist/gpt-tokenizer.js, required on the first token count (esbuild.mjs): commands
 * that count no tokens, `index` above all, never load them, and those that do still count the same.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, runCli } from '../helpers/cli';

const scratch = mkdtempSync(join(tmpdir(), 'co-bundle-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('CLI bundle: the tokenizer loads from its own file, on first use', () => {
  it('dist/cli.js carries no tokenizer tables and requires dist/gpt-tokenizer.js instead', () => {
    const bundle = readFileSync(CLI, 'utf8');
    assert.doesNotMatch(bundle, /bpeRanks/);
    assert.match(bundle, /require\("\.\/gpt-tokenizer\.js"\)/);
    assert.ok(statSync(CLI).size < 3_000_000, `dist/cli.js is ${statSync(CLI).size} bytes`);
    assert.match(readFileSync(resolve('dist/gpt-tokenizer.js'), 'utf8'), /bpeRanks/);
  });

  it('index runs from a dist without the tokenizer file; context counts tokens with it', () => {
    // A copy of dist/ (links) without gpt-tokenizer.js: index must not reach for it.
    const dist = join(scratch, 'dist');
    mkdirSync(dist);
    for (const name of readdirSync(resolve('dist'))) if (name !== 'gpt-tokenizer.js') symlinkSync(resolve('dist', name), join(dist, name));
    const root = resolve('test/fixtures/oracle');
    const db = join(scratch, 'index.db');
    const env = { ...process.env, XDG_CACHE_HOME: join(scratch, 'cache') };
    const index = spawnSync(process.execPath, [join(dist, 'cli.js'), 'index', '--root', root, '--db', db, '--json'], { env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(index.status, 0, index.stderr);
    assert.ok(JSON.parse(index.stdout).parsed > 0);

    const context = runCli(['context', 'how does the greeter work', '--root', root, '--db', db, '--format', 'json', '--max-tokens', '400'], { env });
    assert.equal(context.code, 0, context.stderr);
    const used = (JSON.parse(context.stdout) as { token_count: number }).token_count;
    assert.ok(used > 0 && used <= 400, `token_count ${used}`);
  });
});
