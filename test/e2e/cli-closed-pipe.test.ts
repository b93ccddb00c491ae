/**
 * `context-oracle … | head -1`: the reader closes the pipe after the first line. The CLI stops quietly with exit 0,
 * as Unix tools do, instead of dying on an unhandled EPIPE with a stack trace on stderr.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, runCli } from '../helpers/cli';

const cache = mkdtempSync(join(tmpdir(), 'co-epipe-'));
after(() => rmSync(cache, { recursive: true, force: true }));

describe('CLI: a reader that closes the pipe early', () => {
  it('ask whose reader has closed the pipe exits 0 without a stack trace', async () => {
    const root = resolve('test/fixtures/oracle');
    const env = { ...process.env, XDG_CACHE_HOME: cache };
    assert.equal(runCli(['index', '--root', root], { env }).code, 0);
    const child = spawn(process.execPath, [CLI, 'ask', 'how does the greeter work', '--root', root, '--no-log'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    // Like `head` that has already had its lines: our end of the pipe is closed before the CLI writes the answer
    // (closing after a first chunk would race the CLI's remaining writes into the pipe's buffer).
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Unhandled 'error' event/);
  });
});
