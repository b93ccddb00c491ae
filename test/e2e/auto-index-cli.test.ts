/**
 * A read command never fails because the index cache is missing or damaged: the CLI builds it once, says so in one
 * line on stderr, and answers; stdout carries only the answer (JSON stays parseable).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { DefinitionsResult } from '../../src/core/navigation/types';
import type { SearchHit } from '../../src/core/model';
import { runCli, runCliJson } from '../helpers/cli';
import { makeWorkspace, removeWorkspace, indexPathOf, cacheDirOf } from '../helpers/workspace';

const FILES = {
  'src/server.ts': 'import { route } from "./router";\nexport class HttpServer {\n  listen(port: number) { route(port); }\n}\n',
  'src/router.ts': 'export function route(port: number) { return port; }\n',
};
const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));
function fresh(): string {
  const root = makeWorkspace(FILES);
  roots.push(root);
  return root;
}
const lines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.trim());

describe('read commands on a missing or damaged index', () => {
  it('a fresh workspace: search builds the index once, says so on stderr, and answers in clean JSON; def then just answers', () => {
    const root = fresh();
    const search = runCliJson<{ results: SearchHit[] }>(['search', 'listen', '--root', root, '--limit', '3']);
    assert.equal(search.code, 0, search.stderr);
    assert.equal(search.json.results[0]?.symbol, 'HttpServer.listen');
    assert.equal(search.json.results[0]?.path, 'src/server.ts');
    assert.equal(lines(search.stderr).length, 1, search.stderr);
    assert.match(search.stderr, /^context-oracle: no index yet; built it \(2 files, [\d.]+ s\) before answering\n$/);
    assert.ok(existsSync(indexPathOf(root)));
    assert.ok(!existsSync(join(root, '.context-oracle')), 'nothing is written into the workspace');

    const def = runCliJson<DefinitionsResult>(['def', 'route', '--root', root]);
    assert.equal(def.code, 0, def.stderr);
    assert.equal(def.json.results[0]?.path, 'src/router.ts');
    assert.equal(def.stderr, '', 'built once: the second command says nothing');
  });

  it('a fresh workspace: def answers as text, with the one line on stderr', () => {
    const root = fresh();
    const r = runCli(['def', 'HttpServer.listen', '--root', root]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^src\/server\.ts:3:\d+ {2}method HttpServer\.listen/);
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /no index yet; built it/);
  });

  it('a corrupt index file (garbage bytes): rebuilt and answered, one line on stderr', () => {
    const root = fresh();
    mkdirSync(cacheDirOf(root), { recursive: true });
    writeFileSync(indexPathOf(root), randomBytes(64 * 1024));
    const r = runCliJson<DefinitionsResult>(['def', 'route', '--root', root]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.results[0]?.path, 'src/router.ts');
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /^context-oracle: the index could not be used \(.+\); built it \(2 files, [\d.]+ s\) before answering\n$/);
    const search = runCliJson<{ results: SearchHit[] }>(['search', 'route', '--root', root]);
    assert.equal(search.code, 0);
    assert.ok(search.json.results.some((h) => h.path === 'src/router.ts'));
    assert.equal(search.stderr, '');
  });

  it('ask on a fresh workspace answers from the code it has just indexed', () => {
    const root = fresh();
    const r = runCli(['ask', 'Where is route defined?', '--root', root, '--no-log', '--no-model']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /src\/router\.ts:1/);
    assert.match(r.stderr, /no index yet; built it/);
  });
});
