/**
 * The MCP server's freshness policy, through the SDK's own client over stdio: on an existing index a query answers
 * at once while the startup refresh is still running; a file edited while the server runs reaches the index through
 * the workspace watcher and the just-in-time commit of the file a question names; every answer carries the stamp.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { call, fixtureWorkspaces, serve } from './mcp-harness';

const workspace = fixtureWorkspaces();

interface Stamped {
  freshness?: { head?: string; queued: string[]; queued_more?: number };
}
interface Status {
  indexing: { state: string; watching: boolean };
  freshness?: { queued: string[] };
}

/** Enough generated modules that re-parsing them all keeps the startup refresh busy for a while. */
function generated(version: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 400; i++) {
    const body = Array.from({ length: 40 }, (_, k) => `export function gen${i}x${k}(input: number): number {\n  return input * ${k + version} + ${i};\n}\n`).join('\n');
    files[`gen/module${i}.ts`] = body;
  }
  return files;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('MCP server freshness', () => {
  it('answers from an existing index at once while the startup refresh is still running', async () => {
    const root = workspace();
    for (const [path, text] of Object.entries(generated(1))) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    assert.equal(runCli(['index', '--root', root]).code, 0);
    // Every generated module changes while no server runs: the startup refresh re-parses all of them.
    for (const [path, text] of Object.entries(generated(2))) writeFileSync(join(root, path), text);
    const server = await serve(root, ['-v']);
    try {
      await waitFor('the startup refresh to start', async () => ((await call<Status>(server.client, 'index_status', {})).json.indexing.state === 'indexing' ? true : undefined));
      const started = Date.now();
      const r = await call<{ results: { path: string }[] } & Stamped>(server.client, 'search_code', { query: 'route' });
      const tookMs = Date.now() - started;
      assert.equal(r.isError, false, r.texts[0]);
      assert.equal(r.json.results[0]?.path, 'src/router.ts');
      const status = await call<Status>(server.client, 'index_status', {});
      assert.equal(status.json.indexing.state, 'indexing', `the refresh was still running when the query had answered (${tookMs} ms):\n${server.stderr()}`);
      assert.equal(status.json.indexing.watching, true);
      // The refresh finishes on its own, after the query (watched in the log: no engine call while it persists).
      await waitFor('the startup refresh', async () => (/index \(startup\): \d+ parsed/.test(server.stderr()) ? true : undefined), 120_000);
      const log = server.stderr();
      assert.ok(log.search(/search_code #\d+/) >= 0 && log.search(/search_code #\d+/) < log.search(/index \(startup\): \d+ parsed/), log);
    } finally {
      await server.close();
    }
  });

  it('a file edited after startup is queued by the watcher and found once a question names it', async () => {
    const root = workspace();
    const server = await serve(root);
    try {
      // No index yet: the first call waits for the build, then answers.
      const first = await call<{ results: { path: string }[] } & Stamped>(server.client, 'find_definition', { symbol: 'Router' });
      assert.equal(first.isError, false, first.texts[0]);
      assert.equal(first.json.results[0]?.path, 'src/router.ts');
      assert.deepEqual(first.json.freshness, { queued: [] }, 'every answer carries the stamp (no git here: no head)');

      appendFileSync(join(root, 'src/router.ts'), '\nexport function routerTelemetry(): string {\n  return "routes";\n}\n');
      const queued = await waitFor('the watcher to queue the edit', async () => {
        const s = await call<Status>(server.client, 'index_status', {});
        return s.json.freshness?.queued.includes('src/router.ts') ? s.json.freshness.queued : undefined;
      });
      assert.deepEqual(queued, ['src/router.ts']);

      // The name holds the file's stem: the question commits the queued file before it is answered.
      const def = await call<{ results: { path: string; line: number; symbol: string }[] } & Stamped>(server.client, 'find_definition', { symbol: 'routerTelemetry' });
      assert.equal(def.isError, false, def.texts[0]);
      assert.deepEqual(def.json.results.map((d) => [d.symbol, d.path]), [['routerTelemetry', 'src/router.ts']]);
      assert.deepEqual(def.json.freshness?.queued, [], 'committed, no longer queued');
      const hits = await call<{ results: { path: string; symbol?: string }[] }>(server.client, 'search_code', { query: 'routerTelemetry' });
      assert.equal(hits.json.results[0]?.symbol, 'routerTelemetry');
    } finally {
      await server.close();
    }
  });
});
