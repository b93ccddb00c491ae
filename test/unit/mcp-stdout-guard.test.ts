/**
 * The stdout guard in a real child process (this same file, started with CO_STDOUT_GUARD_CHILD=1): console.log,
 * process.stdout.write and a worker thread's stdout all land on stderr, and only protocol writes reach stdout.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { guardStdout } from '../../src/mcp/stdout-guard';

async function child(): Promise<void> {
  const guard = guardStdout();
  console.log('stray console.log');
  process.stdout.write('stray write\n');
  const worker = new Worker("process.stdout.write('stray worker output\\n')", { eval: true });
  await new Promise((resolve) => worker.once('exit', resolve));
  await new Promise<void>((resolve) => guard.protocol.write('{"jsonrpc":"2.0","method":"ping"}\n', () => resolve()));
  guard.restore();
  process.stdout.write('{"jsonrpc":"2.0","method":"restored"}\n');
}

if (process.env.CO_STDOUT_GUARD_CHILD) {
  void child();
} else {
  describe('MCP stdout guard', () => {
    it('sends everything but protocol writes to stderr', () => {
      const r = spawnSync(process.execPath, [__filename], { env: { ...process.env, CO_STDOUT_GUARD_CHILD: '1' }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n').filter(Boolean), ['{"jsonrpc":"2.0","method":"ping"}', '{"jsonrpc":"2.0","method":"restored"}']);
      for (const stray of ['stray console.log', 'stray write', 'stray worker output']) assert.match(r.stderr, new RegExp(stray));
    });
  });
}
