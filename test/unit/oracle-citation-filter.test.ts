import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCitationFilter } from '../../src/core/oracle/citation-filter';

const run = (valid: number[], deltas: string[]): { text: string; removed: number[] } => {
  const f = createCitationFilter(new Set(valid));
  const text = deltas.map((d) => f.push(d)).join('') + f.flush();
  return { text, removed: f.removed };
};

test('citation numbers that match no evidence are removed, even split across deltas', () => {
  assert.deepEqual(run([1, 2], ['See [1] and [9', '9] too.']), { text: 'See [1] and  too.', removed: [99] });
  assert.deepEqual(run([1, 2], ['Both [1, ', '7, 2].']), { text: 'Both [1, 2].', removed: [7] });
  assert.deepEqual(run([1], ['[1][3]', '']), { text: '[1]', removed: [3] });
});

test('text that is not a citation passes untouched, including an unclosed bracket at the end', () => {
  assert.deepEqual(run([1], ['arr[i] = x[0', '] and [', 'see']), { text: 'arr[i] = x[0] and [see', removed: [] });
  assert.deepEqual(run([1], ['f()[7] is code, ', '[7] is not']), { text: 'f()[7] is code,  is not', removed: [7] });
  assert.deepEqual(run([1], ['ends with [1', '2']), { text: 'ends with [12', removed: [] });
});
