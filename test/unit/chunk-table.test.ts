import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkTable, type ChunkMeta } from '../../src/core/context/chunk-table';

test('chunk table: reads back what was set, as a Map of rows would', () => {
  const table = new ChunkTable();
  const model = new Map<number, ChunkMeta>();
  const kinds = ['function', 'class', 'method', 'block'];
  // Ids past the first capacity (1024) and out of order, so the columns grow while holding rows.
  const ids = [5, 1, 3000, 1023, 1024, 70000, 2];
  ids.forEach((id, i) => {
    const meta: ChunkMeta = { id, fileId: 100 + (i % 3), kind: kinds[i % kinds.length]!, lineStart: i * 10, lineEnd: i * 10 + 5 };
    if (i % 2 === 0) meta.symbol = `sym${i}`;
    table.set(meta);
    model.set(id, meta);
  });
  assert.equal(table.size, ids.length);
  for (const id of ids) assert.deepEqual(table.get(id), model.get(id));
  assert.equal(table.get(4), undefined);
  assert.equal(table.get(1 << 20), undefined);
  assert.equal(table.get(-1), undefined);
  // A row without a symbol has no symbol key at all (rows are compared whole elsewhere).
  assert.ok(!('symbol' in table.get(1)!));

  // Overwriting a row drops its old symbol; deleting frees the id.
  table.set({ id: 5, fileId: 7, kind: 'class', lineStart: 1, lineEnd: 2 });
  model.set(5, { id: 5, fileId: 7, kind: 'class', lineStart: 1, lineEnd: 2 });
  table.delete(3000);
  table.delete(3000);
  table.delete(4);
  model.delete(3000);
  assert.equal(table.size, model.size);
  assert.deepEqual([...table.values()], [...model.values()].sort((a, b) => a.id - b.id));
});
