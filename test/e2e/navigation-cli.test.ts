/** `def`, `refs` and `map` through the built CLI on a fixture copy: JSON shapes, text output, exit codes. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { DefinitionsResult, ReferencesResult, RepoMap } from '../../src/core/model';
import { runCli, runCliJson } from '../helpers/cli';
import { removeWorkspace } from '../helpers/workspace';

const root = mkdtempSync(join(tmpdir(), 'co-nav-cli-'));
cpSync(resolve('test/fixtures/navigation/ts'), root, { recursive: true });
after(() => removeWorkspace(root));

describe('navigation CLI', () => {
  before(() => {
    assert.equal(runCli(['index', '--root', root]).code, 0);
  });

  it('def --json gives ranked definitions with locations, kind, preview and source', () => {
    const r = runCliJson<DefinitionsResult>(['def', 'Server.listen', '--root', root]);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json.results.map((h) => [h.path, h.line, h.column, h.endColumn, h.kind, h.container, h.source]),
      [['src/server.ts', 7, 3, 9, 'method', 'Server', 'index']]);
    assert.equal(r.json.results[0]!.preview, 'listen(): number');
  });

  it('def --from-question reads the evaluation harness question file', () => {
    const question = join(root, 'q.json');
    writeFileSync(question, JSON.stringify({ id: 'x', set: 'B', question: 'Where is createServer defined?', max_results: 10 }));
    const r = runCliJson<DefinitionsResult>(['def', '--from-question', question, '--root', root]);
    assert.equal(r.code, 0);
    assert.deepEqual({ path: r.json.results[0]!.path, line: r.json.results[0]!.line }, { path: 'src/server.ts', line: 14 });
  });

  it('refs --json --limit gives the definition, the first references and the total', () => {
    const r = runCliJson<ReferencesResult>(['refs', 'route', '--root', root, '--limit', '2']);
    assert.equal(r.code, 0);
    assert.equal(r.json.definition.path, 'src/router.ts');
    assert.equal(r.json.results.length, 2);
    assert.equal(r.json.total, 5);
    assert.deepEqual(Object.keys(r.json.results[0]!).sort(), ['column', 'endColumn', 'inSymbol', 'kind', 'line', 'path', 'preview', 'proximity', 'source']);
  });

  it('map --json fits the budget; text output ends with a summary line', () => {
    const r = runCliJson<RepoMap>(['map', '--root', root, '--max-tokens', '60', '--scope', 'src']);
    assert.equal(r.code, 0);
    assert.ok(r.json.tokens <= 60 && r.json.tokens > 0);
    assert.ok(r.json.files.every((f) => f.path.startsWith('src/')));
    const focused = runCliJson<RepoMap>(['map', 'how does login work?', '--root', root, '--max-tokens', '60']);
    assert.equal(focused.json.files[0]!.path, 'src/auth/service.ts', 'the question mentions login');
    const text = runCli(['map', '--root', root]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^src\/router\.ts:$/m);
    assert.match(text.stdout, /^│function route\(port: number\): number$/m);
    assert.match(text.stdout, /\(\d+\/1024 tokens, \d+ files/);
  });

  it('exits 1 with suggestions for unknown symbols and 2 on usage errors', () => {
    const missing = runCliJson<{ error: { code: string; detail: { suggestions: string[] } } }>(['def', 'Sever', '--root', root]);
    assert.equal(missing.code, 1);
    assert.equal(missing.json.error.code, 'not_found');
    assert.ok(missing.json.error.detail.suggestions.includes('Server'));
    assert.equal(runCli(['refs', 'nothingLikeThis', '--root', root]).code, 1);
    assert.equal(runCli(['def', '--root', root]).code, 2, 'no SYMBOL');
    assert.equal(runCli(['map', '--max-tokens', 'lots', '--root', root]).code, 2);
    const outside = runCliJson<{ error: { code: string } }>(['map', '--scope', '../..', '--root', root]);
    assert.equal(outside.code, 1);
    assert.equal(outside.json.error.code, 'outside_workspace');
  });
});
