/** The indexer's batch sizes: full batches through a long run, smaller ones at its end, short runs as they were. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BatchBudget } from '../../src/core/index/batch-budget';
import type { Candidate } from '../../src/core/index/walker';

const files = (n: number): Candidate[] =>
  Array.from({ length: n }, (_, i) => ({ path: `f${i}.ts`, abs: `/w/f${i}.ts`, language: 'typescript', size: 1000, mtimeMs: 0 }));

function sizes(budget: BatchBudget, all: Candidate[]): number[] {
  const out: number[] = [];
  for (let from = 0; from < all.length;) {
    const n = budget.take(all, from);
    out.push(n);
    from += n;
  }
  return out;
}

describe('batch budget', () => {
  it('ends a long run on small batches, so the last write after the last parse is short', () => {
    const got = sizes(new BatchBudget(48, 0, undefined), files(390));
    assert.equal(got.reduce((a, b) => a + b, 0), 390);
    assert.ok(got.every((n) => n >= 1 && n <= 48), JSON.stringify(got));
    assert.deepEqual(got.slice(0, 5), [48, 48, 48, 48, 48], 'full batches while much is left');
    assert.ok(got.at(-1)! <= 4, `last batch ${got.at(-1)}: ${JSON.stringify(got)}`);
    for (let i = 1; i < got.length; i++) assert.ok(got[i]! <= got[i - 1]!, `never growing again: ${JSON.stringify(got)}`);
  });

  it('leaves a run of a few batches as it was: full batches and the rest', () => {
    assert.deepEqual(sizes(new BatchBudget(8, 0, undefined), files(20)), [8, 8, 4]);
    assert.deepEqual(sizes(new BatchBudget(48, 0, undefined), files(1)), [1]);
  });
});
