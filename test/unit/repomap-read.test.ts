/**
 * How the repo map reads its graph from the index (repomap/map-data.ts): a file's symbol rows become its tags as the
 * next file's begin, so a file whose rows come in more than one run must still get all of its tags, as if its rows
 * had come together; and the tags, held in columns (repomap/tag-table.ts), read back as the definitions they were.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { loadMapData } from '../../src/core/repomap/map-data';
import { decodeMapSnapshot, encodeMapSnapshot } from '../../src/core/repomap/map-snapshot';
import type { MapData } from '../../src/core/repomap/types';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';

const roots: string[] = [];
const disposers: Array<() => Promise<void>> = [];
after(async () => {
  for (const d of disposers) await d();
  roots.forEach(removeWorkspace);
});

const FILES = {
  'src/a.ts': [
    'export class Alpha {',
    '  one(): number { return helper(1); }',
    '  two(): number {',
    '    const inner = () => 2;',
    '    return inner();',
    '  }',
    '}',
    'export function helper(n: number): number { return n; }',
    'export interface Shape { area(): number; }',
  ].join('\n'),
  'src/b.ts': "import { Alpha, helper } from './a';\nexport function useAlpha(): number { return new Alpha().one() + helper(3); }\n",
  'src/c.ts': "import { helper } from './a';\nexport class Gamma implements Shape { area(): number { return helper(4); } }\n",
};

/** Every file's tags as plain data, symbol ids left out (moving rows changes them), and the graph's columns. */
function shape(data: MapData): unknown {
  return {
    files: data.files,
    tags: data.files.map((_, f) => data.tags.of(f).map(({ id: _id, ...rest }) => rest)),
    names: data.idents.names,
    graph: [data.idents.defStart, data.idents.defFiles, data.idents.refStart, data.idents.refFiles, data.idents.refCounts].map((c) => [...c]),
  };
}

describe('reading the repo map graph', () => {
  it('gives a file whose symbol rows come in two runs all of its tags, as if they had come together', async () => {
    const w = await indexedWorkspace(FILES);
    roots.push(w.root);
    disposers.push(w.dispose);
    const together = loadMapData(w.db, 'v1');
    const a = Number(w.db.get("SELECT id FROM files WHERE path = 'src/a.ts'")?.id);
    const rows = Number(w.db.get('SELECT count(*) AS n FROM symbol_rows WHERE file_id = ?', [a])?.n);
    assert.ok(rows >= 4, `src/a.ts has symbols (${rows})`);
    // The later half of src/a.ts's rows moves after all other files' rows, in the same order (the order of rows on one
    // line is their ids'): a scan meets the file's rows in two runs.
    const top = Number(w.db.get('SELECT max(id) AS n FROM symbol_rows')?.n);
    const own = w.db.rows('SELECT id FROM symbol_rows WHERE file_id = ? ORDER BY id', [a]).map((r) => Number(r[0]));
    w.db.run('UPDATE symbol_rows SET id = id + ? WHERE file_id = ? AND id >= ?', [top + 1000, a, own[own.length >> 1]!]);
    const order = w.db.rows('SELECT file_id FROM symbol_rows ORDER BY id').map((r) => Number(r[0]));
    const runs = order.filter((f, i) => f === a && order[i - 1] !== a).length;
    assert.equal(runs, 2, `the file's rows come in two runs: ${order.join(' ')}`);
    const split = loadMapData(w.db, 'v2');
    assert.deepEqual(shape(split), shape(together));
    const f = split.files.indexOf('src/a.ts');
    const moved = split.tags.of(f).filter((t) => t.id > top);
    assert.ok(moved.length > 0, 'the tags of the moved rows are there, under their new ids');
    assert.equal(split.tags.size, together.tags.size);
  });

  it('lists each file\'s tags with their containers, names and kinds', async () => {
    const w = await indexedWorkspace(FILES);
    roots.push(w.root);
    disposers.push(w.dispose);
    const data = loadMapData(w.db, 'v1');
    const a = data.tags.of(data.files.indexOf('src/a.ts'));
    const alpha = a.find((t) => t.name === 'Alpha')!;
    assert.equal(alpha.kind, 'class');
    const two = a.find((t) => t.name === 'two')!;
    assert.equal(two.parent, alpha.index, 'a method sits under its class');
    assert.ok(!a.some((t) => t.name === 'inner'), 'a definition local to a method is left out');
    assert.deepEqual(a.map((t) => t.index), a.map((_, i) => i));
    assert.equal(data.tags.count(data.files.indexOf('src/b.ts')), data.tags.of(data.files.indexOf('src/b.ts')).length);
  });

  it('reads a saved graph back the same from a buffer of its own (columns as views) and from part of a larger one', async () => {
    const w = await indexedWorkspace(FILES);
    roots.push(w.root);
    disposers.push(w.dispose);
    const data = loadMapData(w.db, 'v1');
    const parts = encodeMapSnapshot({ data })!;
    const size = parts.reduce((n, p) => n + p.length, 0);
    const own = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      own.set(p, at);
      at += p.length;
    }
    // At an odd offset in a larger buffer: no column is aligned there, so each is copied.
    const larger = new Uint8Array(size + 11);
    larger.set(own, 3);
    for (const bytes of [own, larger.subarray(3, 3 + size)]) {
      const back = decodeMapSnapshot(bytes)!.data;
      assert.deepEqual(shape(back), shape(data));
      assert.deepEqual(back.files.map((_, f) => back.tags.of(f)), data.files.map((_, f) => data.tags.of(f)));
      assert.deepEqual([...back.pathOrder], [...data.pathOrder]);
      assert.deepEqual([...back.sources.refNames], [...data.sources.refNames]);
    }
    const copied = decodeMapSnapshot(larger.subarray(3, 3 + size))!.data;
    larger.fill(0);
    assert.deepEqual(shape(copied), shape(data), 'columns read from part of a larger buffer are copies of it');
  });
});
