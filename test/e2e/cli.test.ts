/** The built CLI on fixture workspaces: commands, JSON output, exit codes, quiet progress when not on a terminal. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { IndexOutcome, IndexStatus, SearchHit } from '../../src/core/model';
import { runCli, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace } from '../helpers/workspace';

const root = makeWorkspace({
  '.gitignore': 'build/\n',
  'src/server.ts': 'import { route } from "./router";\nexport class HttpServer {\n  listen(port: number) { route(port); }\n}\n',
  'src/router.ts': 'export function route(port: number) { return port; }\n',
  'tools/gen.py': 'def generate_routes():\n    return []\n',
  'build/out.js': 'function built() {}\n',
});
after(() => removeWorkspace(root));

describe('context-oracle CLI', () => {
  it('index → status → search, with JSON on every command', () => {
    const indexed = runCliJson<IndexOutcome>(['index', '--root', root]);
    assert.equal(indexed.code, 0);
    assert.equal(indexed.json.parsed, 3);
    assert.equal(indexed.json.skipCounts.gitignored, 1);
    assert.equal(indexed.stderr, '', 'no progress bar when stderr is not a terminal');

    const status = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(status.code, 0);
    assert.equal(status.json.files, 3);
    assert.deepEqual(status.json.filesByLanguage, { python: 1, typescript: 2 });
    assert.equal(status.json.engineVersion, '0.1.0');

    const search = runCliJson<{ results: SearchHit[] }>(['search', 'listen', '--root', root, '--limit', '3']);
    assert.equal(search.code, 0);
    assert.equal(search.json.results[0]?.symbol, 'HttpServer.listen');
    assert.equal(search.json.results[0]?.path, 'src/server.ts');
    assert.equal(search.json.results[0]?.line, 3);
  });

  it('prints readable text without --json', () => {
    const r = runCli(['status', '--root', root]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /files:\s+3 \(python 1, typescript 2\)/);
    const s = runCli(['search', 'generate routes', '--root', root, '--kind', 'function']);
    assert.match(s.stdout, /tools\/gen\.py:1 {2}function generate_routes/);
  });

  it('exits 2 on usage errors and 1 on engine errors', () => {
    assert.equal(runCli(['frobnicate']).code, 2);
    assert.equal(runCli(['search', '--root', root]).code, 2, 'missing query');
    assert.equal(runCli(['search', 'x', '--limit', 'many', '--root', root]).code, 2);
    assert.equal(runCli(['status', '--bogus']).code, 2);
    const r = runCliJson<{ error: { code: string } }>(['ask', 'x'.repeat(4001), '--root', root, '--no-log']);
    assert.equal(r.code, 1);
    assert.equal(r.json.error.code, 'invalid_input');
  });

  it('writes the index where --db says', () => {
    const db = `${root}/custom/place.db`;
    const r = runCliJson<IndexOutcome>(['index', '--root', root, '--db', db, '--full']);
    assert.equal(r.code, 0);
    const status = runCliJson<IndexStatus>(['status', '--root', root, '--db', db]);
    assert.equal(status.json.indexPath, db);
    assert.equal(status.json.files, 3);
  });
});
