/**
 * The one budget fitter (src/core/budget/fit.ts) that smart context, the oracle, bundles, MCP pages and the repo map
 * are adapters on: fill (skip or stop at a piece that does not fit), the largest fitting prefix, and shedding until
 * within. Costs here are real token counts of real text, so the prefix cost grows the way the adapters' does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fill, largestPrefix, shedUntilWithin } from '../../src/core/budget/fit';
import { countTokens } from '../../src/core/tokens';

const words = ['alpha', 'a considerably longer second piece of text', 'beta', 'gamma delta', 'epsilon'];
const cost = (w: string): number => countTokens(w) + 1;

describe('fill', () => {
  it('skips a piece that does not fit and takes a smaller one after it', () => {
    const limit = cost('alpha') + cost('beta') + cost('gamma delta');
    const r = fill(words, limit, (w, room) => (cost(w) <= room ? cost(w) : undefined));
    assert.deepEqual(r.taken, ['alpha', 'beta', 'gamma delta']);
    assert.deepEqual(r.missed, ['a considerably longer second piece of text', 'epsilon']);
    assert.equal(r.used, limit);
  });

  it("with onMiss 'stop' keeps a prefix: nothing after the first miss is offered", () => {
    const offered: string[] = [];
    const r = fill(words, 100, (w, room) => {
      offered.push(w);
      return w.length > 20 || cost(w) > room ? undefined : cost(w);
    }, { onMiss: 'stop' });
    assert.deepEqual(r.taken, ['alpha']);
    assert.deepEqual(offered, ['alpha', 'a considerably longer second piece of text']);
  });

  it('counts what was already used against the limit', () => {
    const r = fill(['alpha'], cost('alpha'), (w, room) => (cost(w) <= room ? cost(w) : undefined), { used: 1 });
    assert.deepEqual(r.taken, []);
    assert.equal(r.used, 1);
  });
});

describe('largestPrefix', () => {
  const lines = Array.from({ length: 200 }, (_, i) => `entry ${i}: ${'x'.repeat(i % 7)} ${i * 31}`);
  const prefixTokens = (n: number): number => countTokens(lines.slice(0, n).join('\n'));

  it('finds the largest prefix whose whole rendering fits, for every budget, from any lower bound and guess', () => {
    for (const budget of [0, 1, 7, 50, 333, 1000, 5000]) {
      let expected = 0;
      while (expected < lines.length && prefixTokens(expected + 1) <= budget) expected++;
      for (const step of [1, 5, 40]) {
        const fits = (n: number): boolean => prefixTokens(n) <= budget;
        assert.equal(largestPrefix(fits, lines.length, { step }), expected, `budget ${budget}, step ${step}`);
        const known = Math.max(0, expected - 3);
        assert.equal(largestPrefix(fits, lines.length, { known, step }), expected, `budget ${budget}, known ${known}`);
      }
    }
  });

  it('measures little from a close lower bound, and the last accepted count is the answer', () => {
    const budget = 1000;
    const probes: number[] = [];
    let lastAccepted = -1;
    const found = largestPrefix((n) => {
      probes.push(n);
      const ok = prefixTokens(n) <= budget;
      if (ok) lastAccepted = n;
      return ok;
    }, lines.length, { known: 60, step: 8 });
    assert.equal(found, lastAccepted);
    assert.ok(probes.length <= 8, `probes: ${probes.join(',')}`);
    assert.ok(probes.every((n) => n > 60 && n <= lines.length));
  });

  it('never probes past max, and returns the known count when nothing more fits', () => {
    const probes: number[] = [];
    assert.equal(largestPrefix((n) => (probes.push(n), n <= 3), 3, { known: 1, step: 10 }), 3);
    assert.ok(probes.every((n) => n <= 3));
    assert.equal(largestPrefix(() => false, 10, { known: 2 }), 2);
    assert.equal(largestPrefix(() => true, 0), 0);
  });
});

describe('shedUntilWithin', () => {
  it('sheds until within and stops there', () => {
    const kept = [...words];
    const size = (): number => countTokens(kept.join(' '));
    const limit = countTokens('alpha a considerably longer second piece of text');
    const final = shedUntilWithin(limit, size(), () => (kept.pop(), size()));
    assert.ok(final <= limit);
    assert.deepEqual(kept, ['alpha', 'a considerably longer second piece of text']);
  });

  it('returns the size still over the limit when nothing more can go', () => {
    let calls = 0;
    assert.equal(shedUntilWithin(5, 9, () => (calls++ < 2 ? 8 - calls : undefined)), 6);
    assert.equal(calls, 3);
  });
});
