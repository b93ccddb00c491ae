/**
 * A shared index through the built CLI: built and exported under one root, copied with the workspace to another root
 * (mtimes reset, one file changed, one deleted, one added), imported there; the copy is caught up by content. An
 * index of another engine version is refused with a typed error and leaves the current index alone.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import initSqlJs from 'sql.js';
import type { DefinitionsResult } from '../../src/core/navigation/types';
import { runCli, runCliJson } from '../helpers/cli';
import { indexPathOf, makeWorkspace, removeWorkspace } from '../helpers/workspace';

const FILES = {
  'src/alpha.ts': 'export function alpha(): number { return 1; }\n',
  'src/beta.ts': 'export function beta(): number { return 2; }\n',
  'src/gamma.ts': 'export function gamma(): number { return 3; }\n',
};
const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

/** The workspace built in "CI" and its exported index. */
function built(): { ci: string; shared: string } {
  const ci = makeWorkspace(FILES);
  roots.push(ci);
  const shared = join(ci, '..', `${ci.split('/').pop()}-shared.db`);
  roots.push(shared);
  const r = runCli(['index', '--root', ci, '--export', shared]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /exported the index to .*-shared\.db/);
  return { ci, shared };
}

/** A teammate's checkout: the same files under another root, every mtime reset, then the edits. */
function checkout(ci: string): string {
  const copy = makeWorkspace({});
  roots.push(copy);
  cpSync(ci, copy, { recursive: true });
  const later = new Date(Date.now() + 60_000);
  for (const f of Object.keys(FILES)) utimesSync(join(copy, f), later, later);
  // Same size and the mtime the index stored: only a content hash can tell this edit apart.
  const beta = join(copy, 'src/beta.ts');
  const stored = statSync(join(ci, 'src/beta.ts'));
  writeFileSync(beta, 'export function betb(): number { return 2; }\n');
  utimesSync(beta, stored.atime, stored.mtime);
  rmSync(join(copy, 'src/gamma.ts'));
  writeFileSync(join(copy, 'src/delta.ts'), 'export function delta(): number { return 4; }\n');
  return copy;
}

/**
 * Adopting restamps every file; kept as a journal record, every later process would replay it (14.8 MB, ~1 CPU-s at
 * 124k files), so the adopting run writes a whole image and leaves the journal empty.
 */
function assertNoJournalRecord(path: string): void {
  assert.match(readFileSync(path, 'latin1'), /^CO-JOURNAL 1 [0-9a-f]+\n$/, 'the journal holds its header only');
}

const defined = (root: string, name: string, extra: string[] = []) =>
  runCliJson<DefinitionsResult>(['def', name, '--root', root, ...extra]);

describe('a shared index', () => {
  it('index --import puts it in the cache folder and catches it up: changed files re-indexed, deleted ones dropped', () => {
    const { ci, shared } = built();
    const copy = checkout(ci);
    const r = runCliJson<{ parsed: number; removed: number; unchanged: number; imported: string }>(['index', '--root', copy, '--import', shared]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([r.json.parsed, r.json.removed, r.json.unchanged], [2, 1, 1], 'beta (same size and mtime) and delta parsed, gamma dropped, alpha kept');
    assert.ok(existsSync(indexPathOf(copy)), 'the import is where the cache folder expects it');
    assertNoJournalRecord(`${indexPathOf(copy)}.journal`);

    const beta = defined(copy, 'betb');
    assert.equal(beta.code, 0, beta.stderr);
    assert.equal(beta.json.results[0]?.path, 'src/beta.ts');
    assert.equal(defined(copy, 'beta').code, 1, 'the old name is gone');
    assert.equal(defined(copy, 'gamma').code, 1, 'a deleted file is dropped');
    assert.equal(defined(copy, 'delta').json.results[0]?.path, 'src/delta.ts');
    assert.equal(defined(copy, 'alpha').json.results[0]?.path, 'src/alpha.ts');
    assert.equal(defined(copy, 'alpha').stderr, '', 'once caught up, reads just answer');
  });

  it('--db FILE on a copy made under another root is caught up before the first answer, in one line on stderr', () => {
    const { ci, shared } = built();
    const copy = checkout(ci);
    const db = join(copy, 'shared.db');
    cpSync(shared, db);
    const gamma = defined(copy, 'gamma', ['--db', db]);
    assert.equal(gamma.code, 1);
    const [first, second, ...rest] = gamma.stderr.split('\n').filter(Boolean);
    assert.equal(first, `context-oracle: the index was built under ${ci}; caught up with the files here (2 re-indexed, 1 removed, ${/[\d.]+ s\)/.exec(first ?? '')?.[0]} before answering`);
    assert.equal(second, 'error (not_found): no definition of "gamma" in the index');
    assert.equal(rest.length, 0);
    assertNoJournalRecord(`${db}.journal`);
    assert.equal(defined(copy, 'betb', ['--db', db]).json.results[0]?.path, 'src/beta.ts');
    assert.equal(defined(copy, 'betb', ['--db', db]).stderr, '');
    const status = runCliJson<{ files: number }>(['status', '--root', copy, '--db', db]);
    assert.equal(status.json.files, 3);
  });

  it('a relative --db, like --export, is a path from where the command runs, not from --root', () => {
    const root = makeWorkspace(FILES);
    const here = makeWorkspace({});
    roots.push(root, here);
    const r = runCli(['index', '--root', root, '--db', 'rel.db', '--export', 'rel-shared.db'], { cwd: here });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(here, 'rel.db')) && existsSync(join(here, 'rel-shared.db')), 'both beside the command');
    assert.equal(existsSync(join(root, 'rel.db')), false, 'nothing written into the indexed tree');
    assert.equal(runCliJson<{ files: number }>(['status', '--root', root, '--db', 'rel.db'], { cwd: here }).json.files, 3);
  });

  it('an index of another engine version is refused with index_incompatible; the current index stays as it was', async () => {
    const { shared } = built();
    const SQL = await initSqlJs({ wasmBinary: readFileSync('dist/sql-wasm.wasm') as unknown as ArrayBuffer });
    const db = new SQL.Database(readFileSync(shared));
    db.run("UPDATE meta SET value = '0.0.1' WHERE key = 'engine_version'");
    const old = `${shared}.old.db`;
    roots.push(old);
    writeFileSync(old, db.export());
    db.close();

    const here = makeWorkspace(FILES);
    roots.push(here);
    assert.equal(runCli(['index', '--root', here]).code, 0);
    const before = readFileSync(indexPathOf(here));
    const r = runCliJson<{ error: { code: string; detail: { key: string; found: string } } }>(['index', '--root', here, '--import', old]);
    assert.equal(r.code, 1);
    assert.equal(r.json.error.code, 'index_incompatible');
    assert.deepEqual([r.json.error.detail.key, r.json.error.detail.found], ['engine_version', '0.0.1']);
    assert.match(r.stderr, /^error \(index_incompatible\): the index was written with engine_version=0\.0\.1 and this engine needs /);
    assert.deepEqual(readFileSync(indexPathOf(here)), before, 'the current index is untouched');

    // Opened in place with --db, the same file is rebuilt over before any answer, with one line saying why.
    const copy = join(here, 'old.db');
    cpSync(old, copy);
    const def = runCliJson<DefinitionsResult>(['def', 'alpha', '--root', here, '--db', copy]);
    assert.equal(def.json.results[0]?.path, 'src/alpha.ts');
    assert.match(def.stderr, /^context-oracle: the index could not be used \(index was written with engine_version=0\.0\.1, this engine needs [^)]+\); built it \(3 files, [\d.]+ s\) before answering\n$/);

    const garbage = `${shared}.txt`;
    roots.push(garbage);
    writeFileSync(garbage, 'not an index');
    const bad = runCliJson<{ error: { code: string } }>(['index', '--root', here, '--import', garbage]);
    assert.equal(bad.json.error.code, 'index_corrupt');
    assert.equal(runCliJson<{ error: { code: string } }>(['index', '--root', here, '--import', join(tmpdir(), 'no-such-index.db')]).json.error.code, 'not_found');
  });
});
