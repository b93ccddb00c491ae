/** Indexing end to end over real sql.js and tree-sitter: counts, skips, incremental updates, deletions. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { createEngine } from '../../src/core/engine';
import { walkWorkspace } from '../../src/core/index/walker';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import type { FileSystem } from '../../src/core/ports';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, testEngine, writeFiles, indexPathOf } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function workspace(files: Record<string, string | Uint8Array>): string {
  const root = makeWorkspace(files);
  roots.push(root);
  return root;
}

describe('indexer', () => {
  it('indexes supported files and counts every skip with its reason', async () => {
    const big = `export const x = 1;\n${'// filler line\n'.repeat(80_000)}`;
    const root = workspace({
      '.gitignore': 'generated/\n*.log\n',
      'src/app.ts': 'export function main(): void { helper(); }\nfunction helper() {}\n',
      'src/util.py': 'def util():\n    return 1\n',
      'generated/out.ts': 'export const gen = 1;\n',
      'notes.log': 'x',
      'README.md': '# readme\n',
      'big.ts': big,
      'blob.ts': new Uint8Array([0x65, 0x78, 0x00, 0x01, 0x02, 0x03]),
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'vendor.min.js': `${'function a(b){return b+1}'.repeat(2000)}\n`,
    });
    const engine = testEngine(root);
    const outcome = await engine.index();
    assert.equal(outcome.full, true);
    assert.equal(outcome.parsed, 2);
    assert.equal(outcome.skipCounts.too_large, 1);
    assert.equal(outcome.skipCounts.binary, 1);
    assert.equal(outcome.skipCounts.minified, 1);
    assert.equal(outcome.skipCounts.gitignored, 2);
    assert.equal(outcome.skipCounts.unsupported, 2); // .gitignore, README.md
    const status = await engine.status();
    assert.equal(status.files, 2);
    assert.deepEqual(status.filesByLanguage, { python: 1, typescript: 1 });
    assert.ok(status.symbols >= 3, `symbols ${status.symbols}`);
    assert.ok(status.indexBytes > 0);
    await engine.dispose();
  });

  it('reparses only changed files, removes deleted ones, and keeps the rest', async () => {
    const root = workspace({
      'a.ts': 'export function alpha() {}\n',
      'b.ts': 'export function beta() {}\n',
      'c.ts': 'export function gamma() {}\n',
    });
    const engine = testEngine(root);
    await engine.index();
    writeFileSync(join(root, 'b.ts'), 'export function betaRenamed() {}\n');
    // Same content, new mtime: hashed, found unchanged, not reparsed.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'c.ts'), later, later);
    rmSync(join(root, 'a.ts'));
    const second = await engine.index();
    assert.equal(second.full, false);
    assert.equal(second.parsed, 1);
    assert.equal(second.removed, 1);
    assert.equal(second.unchanged, 1);
    const names = (await engine.search('beta renamed gamma alpha')).map((h) => h.symbol).sort();
    assert.deepEqual(names, ['betaRenamed', 'gamma']);
    // A no-change run parses nothing.
    const third = await engine.index();
    assert.equal(third.parsed, 0);
    assert.equal(third.unchanged, 2);
    await engine.dispose();
  });

  it('survives a reopen from disk by another engine (persisted atomically)', async () => {
    const root = workspace({ 'm.go': 'package m\n\nfunc Serve() {}\n' });
    const first = testEngine(root);
    await first.index();
    await first.dispose();
    const second = testEngine(root);
    const hits = await second.search('Serve');
    assert.equal(hits[0]?.symbol, 'Serve');
    assert.equal(hits[0]?.path, 'm.go');
    assert.equal(hits[0]?.line, 3);
    await second.dispose();
  });

  it('reports the whole run as elapsed, image saved, beside the time to the last row written', async () => {
    const root = workspace({ 'a.ts': 'export function alpha() {}\n', 'b.py': 'def beta():\n    pass\n' });
    // A clock that moves one tick per reading: every step after the last row (the postings' pack, the image) reads it.
    let tick = 0;
    const assets = createNodeAssetLocator(ASSET_ROOT);
    const engine = createEngine({
      root, fs: nodeFileSystem, storage: createFileIndexStorage(indexPathOf(root)), logger: captureLogger(),
      clock: { now: () => tick++ }, assets, parser: createInProcessParserHost(assets),
    });
    const outcome = await engine.index({ full: true });
    assert.equal(outcome.parsed, 2);
    assert.ok(outcome.durationMs > 0);
    assert.ok(outcome.elapsedMs > outcome.durationMs, `elapsed ${outcome.elapsedMs} vs duration ${outcome.durationMs}`);
    await engine.dispose();
  });

  it('a full run tells its parser host what it will parse once walked; a refresh starts nothing before a batch needs it', async () => {
    const files = { 'a.ts': 'export function alpha() {}\n', 'b.py': 'def beta():\n    pass\n', 'README.md': '# not parsed\n' };
    const root = workspace(files);
    const assets = createNodeAssetLocator(ASSET_ROOT);
    const parser = createInProcessParserHost(assets);
    const warmed: Array<[number, number | undefined]> = [];
    const engine = createEngine({
      root, fs: nodeFileSystem, storage: createFileIndexStorage(indexPathOf(root)), logger: captureLogger(),
      clock: { now: () => Date.now() }, assets, parser: { ...parser, warm: (n, chars) => { warmed.push([n, chars]); } },
    });
    await engine.index({ full: true });
    const bytes = Buffer.byteLength(files['a.ts']) + Buffer.byteLength(files['b.py']);
    assert.deepEqual(warmed, [[Number.POSITIVE_INFINITY, undefined], [2, bytes]], 'before the walk, then the two source files\' size');
    warmed.length = 0;
    await engine.index();
    assert.deepEqual(warmed, [], 'a no-change refresh');
    await engine.dispose();
  });

  it('applies --exclude globs and writes nothing into the workspace', async () => {
    const root = workspace({ 'keep/a.ts': 'export const a = 1;\n', 'skip/b.ts': 'export const b = 1;\n' });
    const engine = testEngine(root, { exclude: ['skip/**'] });
    const outcome = await engine.index();
    assert.equal(outcome.parsed, 1);
    assert.equal(outcome.skipCounts.excluded, 1);
    const { existsSync } = await import('node:fs');
    assert.ok(!existsSync(join(root, '.context-oracle')), 'no .context-oracle/ (nor .gitignore) until people write one');
    assert.ok(existsSync(indexPathOf(root)), 'the index is in the cache folder');
    await engine.dispose();
  });

  it('indexes invalid UTF-8 with replacement characters and reports it', async () => {
    const bytes = Buffer.concat([Buffer.from('def caf'), Buffer.from([0xe9]), Buffer.from('():\n    pass\n\ndef ok():\n    pass\n')]);
    const root = workspace({ 'latin1.py': bytes });
    const engine = testEngine(root);
    const outcome = await engine.index();
    assert.equal(outcome.lossyUtf8, 1);
    assert.equal(outcome.parsed, 1);
    assert.equal((await engine.search('ok'))[0]?.symbol, 'ok');
    await engine.dispose();
  });

  it('follows symlinks inside the workspace, refuses ones outside, and breaks loops', async () => {
    const outside = workspace({ 'secret.ts': 'export const secret = 1;\n' });
    const root = workspace({ 'src/a.ts': 'export function a() {}\n' });
    symlinkSync(join(outside, 'secret.ts'), join(root, 'leak.ts'));
    symlinkSync(join(root, 'src'), join(root, 'src/loop'));
    const engine = testEngine(root);
    const outcome = await engine.index();
    assert.equal(outcome.skipCounts.outside_workspace, 1);
    assert.equal(outcome.skipCounts.symlink_loop, 1);
    assert.equal(outcome.parsed, 1);
    await engine.dispose();
    // The folder a loop leads back to is named inside the workspace, as every skip's path is (not the machine's path).
    const walk = await walkWorkspace(root, nodeFileSystem, DEFAULT_CONFIG, captureLogger());
    assert.deepEqual(walk.skipped.filter((s) => s.reason === 'symlink_loop'), [{ path: 'src/loop', reason: 'symlink_loop', detail: 'src' }]);
  });

  it('keeps the indexed version of a file that became unreadable', async () => {
    const root = workspace({ 'a.ts': 'export function stays() {}\n' });
    // Permission errors come through the FileSystem port (chmod 000 would not stop a root test run from reading).
    let denied = false;
    const fs: FileSystem = {
      ...nodeFileSystem,
      async readFile(abs) {
        if (denied && abs.endsWith('a.ts')) throw Object.assign(new Error(`EACCES: permission denied, open '${abs}'`), { code: 'EACCES' });
        return nodeFileSystem.readFile(abs);
      },
    };
    const assets = createNodeAssetLocator(ASSET_ROOT);
    const engine = createEngine({ root, fs, storage: createFileIndexStorage(join(root, '.context-oracle', 'index.db')), logger: captureLogger(), clock: { now: () => Date.now() }, assets, parser: createInProcessParserHost(assets) });
    await engine.index();
    writeFiles(root, { 'a.ts': 'export function changed() {}\n' });
    denied = true;
    const outcome = await engine.index();
    assert.equal(outcome.skipCounts.unreadable, 1, 'the unreadable file is counted');
    assert.equal((await engine.search('stays'))[0]?.symbol, 'stays', 'and its indexed version stays');
    await engine.dispose();
  });
});
