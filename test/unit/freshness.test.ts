/** The change queue, batched commits, just-in-time commits, freshness stamps and branch switches. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeQueue } from '../../src/core/freshness/change-queue';
import { createEngine } from '../../src/core/engine';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { createFileIndexStorage } from '../../src/node/index-storage';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function engineWithPolicy(root: string, clock: { now(): number }) {
  const assets = createNodeAssetLocator(ASSET_ROOT);
  return createEngine(
    { root, fs: nodeFileSystem, storage: createFileIndexStorage(join(root, '.context-oracle', 'index.db')), logger: captureLogger(), clock, assets, parser: createInProcessParserHost(assets) },
    {},
    { maxFiles: 3, maxLines: 1000, maxAgeMs: 60_000 },
  );
}

describe('change queue policy', () => {
  it('is due on file count, on changed lines, and on age', () => {
    const q = new ChangeQueue({ maxFiles: 5, maxLines: 1000, maxAgeMs: 300_000 });
    for (let i = 0; i < 4; i++) q.add(`f${i}.ts`, 'changed', 0);
    assert.equal(q.due(1), undefined);
    q.add('f0.ts', 'changed', 2); // the same file again is not a new file
    assert.equal(q.due(2), undefined);
    q.add('f4.ts', 'changed', 3);
    assert.equal(q.due(3), 'files');
    const lines = new ChangeQueue({ maxFiles: 5, maxLines: 1000, maxAgeMs: 300_000 });
    lines.add('big.ts', 'changed', 0, 1200);
    assert.equal(lines.due(0), 'lines');
    const age = new ChangeQueue({ maxFiles: 5, maxLines: 1000, maxAgeMs: 300_000 });
    age.add('a.ts', 'changed', 0);
    assert.equal(age.due(299_999), undefined);
    assert.equal(age.due(300_000), 'age');
    assert.equal(age.msUntilDue(100_000), 200_000);
    assert.deepEqual(age.take().map((c) => c.path), ['a.ts']);
    assert.equal(age.size, 0);
  });
});

describe('engine freshness', () => {
  it('queues changes, commits a batch at the threshold, and stamps what is still queued', async () => {
    const root = makeWorkspace({ 'a.ts': 'export function alpha() {}\n' });
    roots.push(root);
    const engine = engineWithPolicy(root, { now: () => Date.now() });
    await engine.index();
    writeFileSync(join(root, 'b.ts'), 'export function bravo() {}\n');
    writeFileSync(join(root, 'c.ts'), 'export function charlie() {}\n');
    await engine.noteChanges([{ path: 'b.ts' }, { path: 'c.ts' }]);
    assert.deepEqual((await engine.freshness()).queued, ['b.ts', 'c.ts']);
    assert.equal((await engine.status()).files, 1, 'not committed below the threshold');
    rmSync(join(root, 'a.ts'));
    await engine.noteChanges([{ path: 'a.ts', kind: 'deleted' }]);
    const status = await engine.status();
    assert.equal(status.files, 2, 'b and c added, a removed, in one batch');
    assert.deepEqual(status.freshness?.queued, []);
    await engine.dispose();
  });

  it('queues only what differs from the index, and a walk settles what it indexed', async () => {
    const root = makeWorkspace({ 'a.ts': 'export function alpha() {}\n' });
    roots.push(root);
    const engine = engineWithPolicy(root, { now: () => Date.now() });
    await engine.index();
    // Saved unchanged, and a temp file that came and went: nothing the index would change.
    writeFileSync(join(root, 'tmp.ts~'), 'x');
    rmSync(join(root, 'tmp.ts~'));
    await engine.noteChanges([{ path: 'a.ts' }, { path: 'tmp.ts~', kind: 'deleted' }]);
    assert.deepEqual((await engine.freshness()).queued, []);
    // A file written, then indexed by a full run before (or after) its event is noted: it does not stay queued.
    writeFileSync(join(root, 'b.ts'), 'export function bravo() {}\n');
    await engine.noteChanges([{ path: 'b.ts' }]);
    assert.deepEqual((await engine.freshness()).queued, ['b.ts']);
    await engine.index();
    assert.deepEqual((await engine.freshness()).queued, [], 'the walk indexed b.ts as it is');
    await engine.noteChanges([{ path: 'b.ts' }]);
    assert.deepEqual((await engine.freshness()).queued, [], 'a late event for b.ts is not a change');
    await engine.dispose();
  });

  it('a folder moved, then deleted, takes its files along; a folder moved in is walked', async () => {
    const root = makeWorkspace({ 'src/pay/charge.ts': 'export function chargeCard() {}\n', 'src/pay/refund.ts': 'export function refundCard() {}\n', 'keep.ts': 'export function keep() {}\n' });
    roots.push(root);
    const engine = engineWithPolicy(root, { now: () => Date.now() });
    await engine.index();
    // A watcher reports a folder rename as the folder's two paths, not as the files in it.
    renameSync(join(root, 'src/pay'), join(root, 'src/billing'));
    await engine.noteChanges([{ path: 'src/pay', kind: 'deleted' }, { path: 'src/billing' }]);
    await engine.syncNow();
    const paths = async () => (await engine.search('card', { limit: 10 })).map((h) => h.path).sort();
    assert.deepEqual(await paths(), ['src/billing/charge.ts', 'src/billing/refund.ts']);
    assert.equal((await engine.status()).files, 3);
    rmSync(join(root, 'src/billing'), { recursive: true });
    await engine.noteChanges([{ path: 'src/billing', kind: 'deleted' }]);
    await engine.syncNow();
    assert.deepEqual(await paths(), []);
    assert.equal((await engine.status()).files, 1, 'only keep.ts is left');
    await engine.dispose();
  });

  it('commits just in time the queued files a question mentions', async () => {
    const root = makeWorkspace({ 'src/billing.py': 'def charge():\n    pass\n', 'src/other.py': 'def other():\n    pass\n' });
    roots.push(root);
    const engine = engineWithPolicy(root, { now: () => Date.now() });
    await engine.index();
    writeFileSync(join(root, 'src/billing.py'), 'def charge_customer():\n    pass\n');
    writeFileSync(join(root, 'src/other.py'), 'def other_thing():\n    pass\n');
    await engine.noteChanges([{ path: 'src/billing.py' }, { path: 'src/other.py' }]);
    const hits = await engine.search('what does billing charge customer do');
    assert.equal(hits[0]?.symbol, 'charge_customer', 'the mentioned file was indexed before answering');
    assert.deepEqual((await engine.freshness()).queued, ['src/other.py'], 'unmentioned changes stay queued');
    await engine.syncNow();
    assert.deepEqual((await engine.freshness()).queued, []);
    assert.equal((await engine.search('other thing'))[0]?.symbol, 'other_thing');
    await engine.dispose();
  });

  it('handles a branch switch as one batch and stamps the new HEAD', async () => {
    const root = makeWorkspace({ 'main.go': 'package m\n\nfunc OnMain() {}\n' });
    roots.push(root);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'main');
    const mainHead = git('rev-parse', 'HEAD');
    git('checkout', '-qb', 'feature');
    writeFileSync(join(root, 'feature.go'), 'package m\n\nfunc OnFeature() {}\n');
    writeFileSync(join(root, 'extra.go'), 'package m\n\nfunc Extra() {}\n');
    git('add', '.');
    git('commit', '-qm', 'feature');
    git('checkout', '-q', 'main');
    const engine = engineWithPolicy(root, { now: () => Date.now() });
    await engine.index();
    assert.equal((await engine.freshness()).indexedHead, mainHead);
    assert.equal((await engine.freshness()).indexedBranch, 'main');
    git('checkout', '-q', 'feature');
    // The watcher reports only one of the files the checkout changed; the HEAD move makes it a whole-workspace batch.
    await engine.noteChanges([{ path: 'feature.go' }]);
    await engine.syncNow();
    const stamp = await engine.freshness();
    assert.equal(stamp.indexedHead, git('rev-parse', 'HEAD'));
    assert.equal(stamp.indexedBranch, 'feature');
    assert.equal((await engine.status()).files, 3, 'extra.go came in with the batch too');
    await engine.dispose();
  });
});
