/**
 * A file's neighbours (file-graph.ts) on a real index (sql.js + tree-sitter): the MAX_NEIGHBOURS heaviest, ties by
 * path, weights over the heaviest. Many users tie on weight, as in a workspace with copies, so a wrong tie rule or
 * a window that drops a heavier late arrival shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFacts } from '../../src/core/context/db-facts';
import { fileEdges } from '../../src/core/context/file-graph';
import type { IndexDatabase } from '../../src/core/store/database';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';

// Users named in reverse path order, so the index's order is not the answer; every fifth uses both names.
const N = 25;
const name = (i: number): string => `users/u${String(i).padStart(2, '0')}.ts`;
const FILES: Record<string, string> = {
  'lib/core.ts': 'export function helper(x: number) { return x + 1; }\nexport function other(x: number) { return x * 2; }\n',
  ...Object.fromEntries(Array.from({ length: N }, (_, k) => {
    const i = N - 1 - k;
    return [name(i), `export function run${i}() { return ${i % 5 === 0 ? `other(helper(${i}))` : `helper(${i})`}; }\n`];
  })),
};

let root = '';
let db: IndexDatabase;
before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

describe('fileEdges', () => {
  it('keeps the twenty heaviest neighbours, heavier first, ties by path, each source counted alone', () => {
    const facts = dbFacts(db);
    const core = facts.byPath.get('lib/core.ts')!.id;
    const user = facts.byPath.get(name(1))!.id;
    // One call for both: the second source's weights start from nothing.
    const both = fileEdges(db, [core, user]);
    assert.deepEqual([...both.get(user)!], [[core, 1]]);
    const edges = both.get(core)!;
    const listed = [...edges].map(([id, w]) => [facts.files.get(id)!.path, w]);
    const heavy = [0, 5, 10, 15, 20].map((i) => [name(i), 1]);
    const light = Array.from({ length: N }, (_, i) => i).filter((i) => i % 5 !== 0).slice(0, 15).map((i) => [name(i), 0.5]);
    assert.deepEqual(listed, [...heavy, ...light]);
  });
});
