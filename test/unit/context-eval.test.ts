/** Scoring a user's golden questions: line parsing (with typed errors for bad lines), recall@k, MRR, tokens per hit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoldenLine, scoreGolden, summariseGolden } from '../../src/core/context/golden';
import type { ContextResult } from '../../src/core/context/types';
import { EngineError } from '../../src/core/errors';

function result(files: string[], nodes: { path: string; symbol?: string }[], tokenCount: number): ContextResult {
  return {
    question: 'q', format: 'mu', tokenCount, entities: [], text: '', cut: [],
    files: files.map((path, i) => ({ path, line: 1, score: 1 - i / 10, signals: {} as never })),
    nodes: nodes.map((n) => ({ id: `${n.path}#${n.symbol ?? ''}`, path: n.path, ...(n.symbol ? { symbol: n.symbol } : {}), kind: 'function', line: 1, endLine: 2, score: 1, signals: {} as never, reason: 'match', tokens: 10 })),
    stats: {} as never,
  };
}

describe('golden questions', () => {
  it('parses files and symbols in the accepted shapes and rejects unusable lines with typed errors', () => {
    assert.deepEqual(parseGoldenLine('{"question":"q","files":["./src/a.ts"],"symbols":"Foo.bar"}', 1), { question: 'q', files: ['src/a.ts'], symbols: ['Foo.bar'] });
    assert.deepEqual(parseGoldenLine('{"question":"q","gt":{"files":["b.py"]}}', 2).files, ['b.py']);
    for (const bad of ['not json', '{"files":["a"]}', '{"question":"q"}', '{"question":"  ","files":["a"]}']) {
      assert.throws(() => parseGoldenLine(bad, 7), (e) => EngineError.is(e, 'invalid_input') && /line 7/.test(e.message));
    }
  });

  it('computes recall@k, reciprocal rank and hits over files and symbols', () => {
    const q = { question: 'q', files: ['c.ts', 'z.ts'], symbols: ['Cart.total'] };
    const s = scoreGolden(q, result(['a.ts', 'b.ts', 'c.ts'], [{ path: 'c.ts' }, { path: 'x.ts', symbol: 'Cart.total' }], 300), [1, 3, 10]);
    assert.deepEqual(s.recall, { 1: 0, 3: 2 / 3, 10: 2 / 3 });
    assert.equal(s.reciprocalRank, 1 / 2); // Cart.total is the 2nd node; c.ts the 3rd file
    assert.equal(s.hits, 2);
    assert.deepEqual(s.missing, ['z.ts']);
  });

  it('summarises, with tokens per hit over all questions', () => {
    const q = { question: 'q', files: ['a.ts'], symbols: [] };
    const hit = scoreGolden(q, result(['a.ts'], [{ path: 'a.ts' }], 400), [1, 5]);
    const miss = scoreGolden(q, result(['b.ts'], [{ path: 'b.ts' }], 200), [1, 5]);
    const sum = summariseGolden([hit, miss], [1, 5]);
    assert.deepEqual(sum, { questions: 2, recall: { 1: 0.5, 5: 0.5 }, mrr: 0.5, tokensPerHit: 600, misses: 1 });
    assert.equal(summariseGolden([miss], [1]).tokensPerHit, null);
  });
});
