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
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace, writeFiles } from '../helpers/workspace';

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
});
