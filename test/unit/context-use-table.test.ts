/**
 * The use table (context/use-table.ts) holds every name's uses in memory after a host's warm-up: it must answer as the
 * per-file and per-name reads it replaces, give the file graph the same edges, and be dropped by any commit, after
 * which the reads answer for the index as it is now.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { dbFacts } from '../../src/core/context/db-facts';
import { fileEdges } from '../../src/core/context/file-graph';
import { runIndex } from '../../src/core/index/indexer';
import type { EngineDeps } from '../../src/core/ports';
import { IndexDatabase } from '../../src/core/store/database';
import { memoryImage } from '../../src/core/store/paged-file';
import { decodeUses, encodeUses } from '../../src/core/context/saved-uses';
import { UseTable } from '../../src/core/context/use-table';
import { concatBytes } from '../../src/core/bytes';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { existsSync, writeFileSync } from 'node:fs';
import type { Engine } from '../../src/core/engine';
import { captureLogger, indexPathOf, makeWorkspace, removeWorkspace, testEngine, writeFiles } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const FILES = {
  'src/server.ts': "import { route } from './router';\nimport { Session } from './auth/session';\nexport function listen(port: number) { route('/'); route('/x'); return new Session(port); }\n",
  'src/router.ts': "import { Session } from './auth/session';\nexport function route(path: string) { return new Session(path.length); }\n",
  'src/auth/session.ts': 'export class Session {\n  constructor(readonly id: number) {}\n  renew() { return new Session(this.id + 1); }\n}\n',
  'app/models/user.py': 'from app.models.base import Model\n\nclass User(Model):\n    def save(self):\n        return helper(1)\n',
  'app/models/base.py': 'def helper(x):\n    return x\n\nclass Model:\n    def save(self):\n        return helper(0)\n',
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`pad/p${i}.ts`, `export function p${i}() { return ${i}; }\n`])),
};

const noPause = async (): Promise<void> => {};

/** FILES in a new workspace, fully indexed into an in-memory database; removed after the tests. */
async function indexed(): Promise<{ root: string; d: EngineDeps; db: IndexDatabase }> {
  const { root, deps, db } = await indexedWorkspace(FILES);
  roots.push(root);
  return { root, d: deps, db };
}

/** What the file graph reads, per file and per name, as plain data. */
function reads(db: IndexDatabase): unknown {
  const facts = dbFacts(db);
  const ids = [...facts.files.keys()];
  const names = [...new Set(ids.flatMap((id) => [...facts.names.linkedNamesOf(id), ...facts.names.usedNames(id)]))].sort();
  facts.names.readUsers(names);
  return {
    used: ids.map((id) => [facts.files.get(id)!.path, facts.names.usedNames(id)]),
    users: names.map((n) => [n, [...facts.names.usersOf(n)].map((id) => facts.files.get(id)!.path).sort()]),
  };
}

describe('the use table', () => {
  it('answers as the reads it replaces and gives the file graph the same edges', async () => {
    const { d, db } = await indexed();
    const image = db.export();
    const [lazy, loaded] = [await IndexDatabase.open(d.assets, memoryImage(image)), await IndexDatabase.open(d.assets, memoryImage(image))];
    await dbFacts(loaded).names.loadUses(noPause);
    assert.ok(dbFacts(loaded).names.usesLoaded);
    assert.ok(!dbFacts(lazy).names.usesLoaded);
    const expected = reads(lazy);
    assert.deepEqual(reads(loaded), expected);
    // The order of first use matters (the graph sums in it): listen uses route before Session.
    const server = [...dbFacts(lazy).files.values()].find((f) => f.path === 'src/server.ts')!.id;
    assert.deepEqual(dbFacts(loaded).names.usedNames(server), dbFacts(lazy).names.usedNames(server));
    const all = (x: IndexDatabase) => [...dbFacts(x).files.keys()];
    const edges = (x: IndexDatabase) => [...fileEdges(x, all(x))].map(([s, m]) => [s, [...m]]);
    assert.deepEqual(edges(loaded), edges(lazy));
    await d.parser.dispose();
  });

  it('is dropped by a commit, after which the uses are those of the index as it is now', async () => {
    const { root, d, db } = await indexed();
    const facts = dbFacts(db);
    await facts.names.loadUses(noPause);
    assert.ok(facts.names.usesLoaded);
    const usersOfRoute = () => [...dbFacts(db).names.usersOf('route')].map((id) => dbFacts(db).files.get(id)!.path).sort();
    assert.deepEqual(usersOfRoute(), ['src/server.ts']);

    writeFiles(root, { 'pad/p3.ts': "import { route } from '../src/router';\nexport function p3() { return route('/p3'); }\n" });
    await runIndex(d, DEFAULT_CONFIG, db, false, { onlyPaths: ['pad/p3.ts'] });
    assert.equal(dbFacts(db), facts, 'updated in place');
    assert.ok(!facts.names.usesLoaded, 'the commit dropped the table');
    assert.deepEqual(usersOfRoute(), ['pad/p3.ts', 'src/server.ts']);
    const p3 = [...facts.files.values()].find((f) => f.path === 'pad/p3.ts')!.id;
    assert.deepEqual(facts.names.usedNames(p3), ['route']);
    await d.parser.dispose();
  });

  it('is not kept when a commit lands while it is being read', async () => {
    const { root, d, db } = await indexed();
    const facts = dbFacts(db);
    let committed = false;
    await facts.names.loadUses(async () => {
      if (committed) return;
      committed = true;
      writeFiles(root, { 'pad/p4.ts': "import { route } from '../src/router';\nexport function p4() { return route('/p4'); }\n" });
      await runIndex(d, DEFAULT_CONFIG, db, false, { onlyPaths: ['pad/p4.ts'] });
      dbFacts(db);
    });
    assert.ok(committed);
    assert.ok(!facts.names.usesLoaded, 'a pass overtaken by a commit is thrown away');
    assert.ok([...facts.names.usersOf('route')].some((id) => facts.files.get(id)?.path === 'pad/p4.ts'));
    await d.parser.dispose();
  });

  it('is saved beside the index by a warm-up and read back by the next host on that index version only', async () => {
    const root = makeWorkspace(FILES);
    roots.push(root);
    const engines: Engine[] = [];
    const open = (logger = captureLogger()) => {
      const e = testEngine(root, {}, logger);
      engines.push(e);
      return { e, logger };
    };
    const questions = ['where is the session renewed', 'how does the router route a path', 'what does a user model save'];
    const answers = async (e: Engine) => {
      const out: unknown[] = [];
      // Timings (durationMs and the like) left out.
      for (const q of questions) out.push(JSON.parse(JSON.stringify(await e.getContextForQuestion(q, { maxTokens: 2000 }), (k, v) => (k.endsWith('Ms') ? undefined : v))));
      return out;
    };
    try {
      const first = open();
      await first.e.index();
      await first.e.warm();
      const sidecar = `${indexPathOf(root)}.uses`;
      assert.ok(existsSync(sidecar), 'saved beside the index');
      assert.ok(!first.logger.lines.some((l) => /read back/.test(l)), 'the first host read the index');
      const expected = await answers(first.e);

      const second = open();
      await second.e.warm();
      assert.ok(second.logger.lines.some((l) => /use table read back from beside the index/.test(l)), second.logger.lines.join('\n'));
      assert.deepEqual(await answers(second.e), expected, 'the same answers from the saved table');

      // A commit moves the index version: the saved table is not used, and one of the new version replaces it.
      writeFiles(root, { 'pad/p5.ts': "import { route } from '../src/router';\nexport function p5() { return route('/p5'); }\n" });
      await second.e.noteChanges([{ path: 'pad/p5.ts' }]);
      await second.e.syncNow();
      const third = open();
      await third.e.warm();
      assert.ok(!third.logger.lines.some((l) => /read back/.test(l)), third.logger.lines.join('\n'));
      const fourth = open();
      await fourth.e.warm();
      assert.ok(fourth.logger.lines.some((l) => /read back/.test(l)), 'the new version was saved');
      assert.deepEqual(await answers(fourth.e), await answers(third.e));

      // Bytes that are not a whole saved table are logged and the index is read instead.
      writeFileSync(sidecar, 'garbage');
      const fifth = open();
      await fifth.e.warm();
      assert.ok(fifth.logger.lines.some((l) => /saved use table is unreadable/.test(l)), fifth.logger.lines.join('\n'));
      assert.deepEqual(await answers(fifth.e), await answers(third.e));
    } finally {
      for (const e of engines) await e.dispose();
    }
  });

  it('saves pairs that read back as the table they came from, for that version only, and only when they fit the index', async () => {
    const { d, db } = await indexed();
    const table = (await UseTable.read(db, 'kind BETWEEN 0 AND 3', noPause, () => true))!;
    const parts = encodeUses('7:1', table.pairs);
    const bytes = concatBytes(parts);
    const { version, pairs: back } = decodeUses(bytes, '7:1')!;
    assert.equal(version, '7:1');
    assert.deepEqual([...back.usedAt], [...table.pairs.usedAt]);
    assert.deepEqual([...back.used], [...table.pairs.used]);
    assert.equal(decodeUses(bytes, '7:2')?.version, '7:1', 'a later version of the same index (full run 7) is given them, with the version they are of');
    assert.equal(decodeUses(bytes, '8:1'), undefined, 'another index (another full run) is not');
    assert.throws(() => decodeUses(bytes.subarray(0, bytes.length - 4), '7:1'), /cut short/);
    const restored = UseTable.fromSaved(db, back)!;
    const files = [...dbFacts(db).files.keys()];
    assert.deepEqual(files.map((f) => restored.namesUsedBy(f)), files.map((f) => table.namesUsedBy(f)));
    for (const name of ['route', 'Session', 'helper', 'Model']) assert.deepEqual([...restored.usersOf(name)], [...table.usersOf(name)]);
    const unknownName = { usedAt: back.usedAt, used: Int32Array.from(back.used, (n, i) => (i === 0 ? 1 << 30 : n)) };
    assert.equal(UseTable.fromSaved(db, unknownName), undefined, 'a name id the index does not have');
    await d.parser.dispose();
  });
});
