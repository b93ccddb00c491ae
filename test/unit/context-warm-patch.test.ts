/**
 * A host opening an index whose serving facts and use table were saved for an earlier version of it (commits since)
 * brings them up to date with the files whose stamps moved (db-facts.ts warmFacts, use-table.ts fromSaved): after
 * commits of every kind (edit, add, remove, rename, names moving between files, an unchanged file's import resolving
 * elsewhere) they must hold what a whole read of the new index holds, and what they save must read back the same.
 * Sidecars of another index (another full run, which renumbers files and names) are never patched.
 */
import assert from 'node:assert/strict';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { warmFacts } from '../../src/core/context/db-facts';
import { decodeFacts, encodeFacts, type FactsOfVersion } from '../../src/core/context/saved-facts';
import { decodeUses, encodeUses, type UsesOfVersion } from '../../src/core/context/saved-uses';
import type { Engine } from '../../src/core/engine';
import { runIndex } from '../../src/core/index/indexer';
import { compactIndex } from '../../src/core/store/compaction';
import { IndexDatabase } from '../../src/core/store/database';
import { indexVersion } from '../../src/core/store/index-version';
import { memoryImage } from '../../src/core/store/paged-file';
import { concatBytes } from '../../src/core/bytes';
import { factsView } from '../helpers/facts-view';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT, hostOpener, makeWorkspace, removeWorkspace, writeFiles } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const FILES = {
  'src/server.ts': "import { route } from './router';\nimport { Session } from './auth/session';\nimport { open } from './store';\nexport function listen(port: number) { route('/'); open(); return new Session(port); }\n",
  'src/router.ts': "import { Session } from './auth/session';\nexport function route(path: string) { return new Session(path.length); }\nexport function parseQuery(q: string) { return q.split('&'); }\n",
  'src/auth/session.ts': 'export class Session {\n  constructor(readonly id: number) {}\n  renew() { return new Session(this.id + 1); }\n}\n',
  'src/store/index.ts': 'export function open() { return 1; }\n',
  'app/models/user.py': 'from app.models.base import Model\n\nclass User(Model):\n    def save(self):\n        return helper(1)\n',
  'app/models/base.py': 'def helper(x):\n    return x\n\nclass Model:\n    def save(self):\n        return helper(0)\n',
  'lib/Util.java': 'package lib;\nimport lib.Helper;\npublic class Util { int run() { return new Helper().help(); } }\n',
  'lib/Helper.java': 'package lib;\npublic class Helper { int help() { return 1; } }\n',
  // Enough other files that a commit of a few is patched rather than read whole.
  ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`pad/p${i}.ts`, `import { route } from '../src/router';\nexport function p${i}() { return route('/p${i}'); }\n`])),
};

const noPause = async (): Promise<void> => {};

/** What a host's warm-up saves beside `db`: its facts (read whole) and use table, decoded back for `db`'s version. */
async function saveSidecars(db: IndexDatabase): Promise<{ facts: FactsOfVersion; uses: UsesOfVersion }> {
  const { facts, toSave } = warmFacts(db);
  facts.imports();
  assert.ok(await facts.names.loadUses(noPause));
  const version = indexVersion(db);
  return { facts: decodeFacts(concatBytes(encodeFacts(version, toSave()!)!), version)!, uses: decodeUses(concatBytes(encodeUses(version, facts.names.usePairs!)), version)! };
}

/** A copy of `db` as the next host opens it. */
const reopen = (db: IndexDatabase): Promise<IndexDatabase> => IndexDatabase.open(createNodeAssetLocator(ASSET_ROOT), memoryImage(db.export()));

/**
 * The facts and use table brought up from `saved` on a copy of `db` equal those of a whole read of another copy;
 * what the patched ones save reads back the same on a third. Gives those sidecars (saved for `db`'s version).
 */
async function assertPatchedAsRead(db: IndexDatabase, saved: { facts: FactsOfVersion; uses: UsesOfVersion }, what: string): Promise<{ facts: FactsOfVersion; uses: UsesOfVersion }> {
  const version = indexVersion(db);
  const [patchedDb, readDb, againDb] = [await reopen(db), await reopen(db), await reopen(db)];
  const read = warmFacts(readDb);
  read.facts.imports();
  assert.ok(await read.facts.names.loadUses(noPause));

  const patched = warmFacts(patchedDb, decodeFacts(concatBytes(encodeFacts(saved.facts.version, saved.facts.facts)!), version));
  assert.equal(patched.restored?.version, saved.facts.version, `${what}: from the saved facts`);
  assert.ok(patched.restored.changed.size > 0, `${what}: some files read again`);
  assert.ok(patched.restored.changed.size < 20, `${what}: only the changed files read again (${patched.restored.changed.size})`);
  patched.facts.imports();
  assert.ok(await patched.facts.names.loadUses(noPause, saved.uses.pairs, patched.restored.changed), `${what}: the use table patched`);
  assert.deepEqual([...patched.facts.names.usePairs!.usedAt], [...read.facts.names.usePairs!.usedAt], `${what}: use table offsets`);
  assert.deepEqual([...patched.facts.names.usePairs!.used], [...read.facts.names.usePairs!.used], `${what}: use table names`);
  assert.deepEqual(factsView(patched.facts, { uses: true }), factsView(read.facts, { uses: true }), what);

  const toSave = patched.toSave();
  assert.ok(toSave, `${what}: the patched facts are saved for the new version`);
  const next = { facts: decodeFacts(concatBytes(encodeFacts(version, toSave)!), version)!, uses: decodeUses(concatBytes(encodeUses(version, patched.facts.names.usePairs!)), version)! };
  const again = warmFacts(againDb, next.facts);
  assert.equal(again.restored?.changed.size, 0, `${what}: the next host takes them as they are`);
  assert.ok(await again.facts.names.loadUses(noPause, next.uses.pairs, new Set()));
  assert.deepEqual(factsView(again.facts, { uses: true }), factsView(read.facts, { uses: true }), `${what}: read back after saving`);
  return next;
}

describe('serving facts and use table saved for an earlier version of the index', () => {
  it('are brought up to date by the files changed since, to what a whole read gives, after commits of every kind', async () => {
    const { root, db, deps, dispose } = await indexedWorkspace(FILES);
    roots.push(root);
    const commit = async (paths: string[]): Promise<void> => {
      await runIndex(deps, DEFAULT_CONFIG, db, false, { onlyPaths: paths });
    };
    const first = await saveSidecars(await reopen(db));
    let previous = first;
    const steps: Array<[string, () => void, string[]]> = [
      ['edit a file', () => writeFiles(root, { 'pad/p3.ts': "import { Session } from '../src/auth/session';\nexport function p3() { return new Session(3); }\n" }), ['pad/p3.ts']],
      ['add a file', () => writeFiles(root, { 'pad/extra.ts': "import { route } from '../src/router';\nexport function extra() { return route('/extra'); }\n" }), ['pad/extra.ts']],
      ['remove a file', () => rmSync(join(root, 'pad/p7.ts')), ['pad/p7.ts']],
      ['rename a file', () => renameSync(join(root, 'pad/p9.ts'), join(root, 'pad/p9renamed.ts')), ['pad/p9.ts', 'pad/p9renamed.ts']],
      ['move a name between files', () => writeFiles(root, {
        'src/router.ts': "import { Session } from './auth/session';\nexport function route(path: string) { return new Session(path.length); }\n",
        'src/auth/session.ts': "export class Session {\n  constructor(readonly id: number) {}\n  renew() { return new Session(this.id + 1); }\n}\nexport function parseQuery(q: string) { return q.split('&'); }\n",
      }), ['src/router.ts', 'src/auth/session.ts']],
      // src/server.ts is not rewritten: its './store' now resolves to the new src/store.ts rather than src/store/index.ts.
      ['an unchanged file\'s import resolves elsewhere', () => writeFiles(root, { 'src/store.ts': 'export function open() { return 2; }\nexport function close() {}\n' }), ['src/store.ts']],
      ['a name new to the index, defined and used', () => writeFiles(root, {
        'app/models/user.py': 'from app.models.base import Model\n\nclass User(Model):\n    def save(self):\n        return brandNewHelper(helper(1))\n\ndef brandNewHelper(x):\n    return x\n',
      }), ['app/models/user.py']],
    ];
    for (const [what, change, paths] of steps) {
      const before = indexVersion(db);
      change();
      await commit(paths);
      assert.notEqual(indexVersion(db), before, `${what}: the commit moved the version`);
      // From the sidecars of the version just before, and from those of the first version (several commits since).
      previous = await assertPatchedAsRead(db, previous, what);
      await assertPatchedAsRead(db, first, `${what}, from the first version`);
    }
    const links = warmFacts(await reopen(db)).facts;
    const server = links.byPath.get('src/server.ts')!.id;
    assert.ok([...links.imports().get(server)!].some((id) => links.files.get(id)!.path === 'src/store.ts'), 'the import now resolves to src/store.ts');

    // Compaction keeps every id (the postings are rebuilt, nothing renumbered): the sidecars still patch.
    compactIndex(db, { rebuild: true });
    writeFiles(root, { 'pad/p1.ts': 'export function p1() { return 1; }\n' });
    await commit(['pad/p1.ts']);
    await assertPatchedAsRead(db, previous, 'a commit after compaction');
    await dispose();
  });

  it('of another full run are never patched: the host reads the index whole and saves them anew', async () => {
    const root = makeWorkspace(FILES);
    roots.push(root);
    const engines: Engine[] = [];
    const openHost = hostOpener(root, engines);
    const open = () => {
      const h = openHost();
      return { ...h, patched: () => h.said(/serving facts saved for .* brought up/) && h.said(/use table saved for .* brought up/), readBack: () => h.said(/serving facts read back/) };
    };
    try {
      const first = open();
      await first.e.index({ full: true });
      await first.e.warm();
      // A commit by another process (the CLI's `index`): the next host patches.
      writeFiles(root, { 'pad/p2.ts': 'export function p2() { return 2; }\n' });
      await first.e.index();
      const second = open();
      await second.e.warm();
      assert.ok(second.patched(), second.logger.lines.join('\n'));
      const third = open();
      await third.e.warm();
      assert.ok(third.readBack(), 'the patched facts were saved for the new version');

      // A full run makes another index (created_at): ids may mean other files and names, so nothing is patched.
      writeFiles(root, { 'pad/p4.ts': 'export function p4() { return 4; }\n' });
      await third.e.index({ full: true });
      const fourth = open();
      await fourth.e.warm();
      assert.ok(!fourth.patched() && !fourth.readBack(), fourth.logger.lines.join('\n'));
      const fifth = open();
      await fifth.e.warm();
      assert.ok(fifth.readBack(), 'saved anew for the new full run');
    } finally {
      for (const e of engines) await e.dispose();
    }
  });
});
