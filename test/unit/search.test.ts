import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EngineError } from '../../src/core/errors';
import { bm25 } from '../../src/core/store/bm25';
import { queryTerms } from '../../src/core/search/full-text';
import { searchableText, splitIdentifier } from '../../src/core/parse/identifiers';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

describe('identifier splitting', () => {
  it('splits camelCase, PascalCase, snake_case and acronyms', () => {
    assert.deepEqual(splitIdentifier('getUserName'), ['get', 'user', 'name']);
    assert.deepEqual(splitIdentifier('HTTPServerError'), ['http', 'server', 'error']);
    assert.deepEqual(splitIdentifier('parse_args_v2'), ['parse', 'args', 'v2']);
    assert.equal(searchableText('new XMLParser();  // naïve'), 'new xmlparser xml parser naïve');
  });
  it('builds query terms without stopwords, whole and split', () => {
    assert.deepEqual(queryTerms('Where is the getUserName of it'), ['getusername', 'get', 'user', 'name']);
  });
});

describe('bm25 over matchinfo', () => {
  it('scores rarer terms and shorter documents higher', () => {
    // p=1 phrase, c=1 column, n=10 rows, avg=10 tokens, this row 10 tokens, hits here 1, total 1, rows with hit 1.
    const info = (len: number, rowsWithHit: number) => new Uint8Array(new Uint32Array([1, 1, 10, 10, len, 1, 1, rowsWithHit]).buffer);
    assert.ok(bm25(info(10, 1), [1]) > bm25(info(10, 5), [1]), 'rarer term scores higher');
    assert.ok(bm25(info(5, 1), [1]) > bm25(info(40, 1), [1]), 'shorter document scores higher');
    assert.ok(bm25(info(10, 1), [2]) > bm25(info(10, 1), [1]), 'column weight applies');
  });
});

describe('search', () => {
  it('finds a symbol by split words, ranks the exact name first, filters by kind', async () => {
    const root = makeWorkspace({
      'src/users.ts': [
        'export class UserStore {',
        '  getUserName(id: string): string { return lookup(id); }',
        '}',
        'export function lookup(id: string): string { return id; }',
        'export function userNameFormatter(name: string) { return name.trim(); }',
      ].join('\n'),
    });
    roots.push(root);
    const engine = testEngine(root);
    await engine.index();
    const hits = await engine.search('user name');
    assert.ok(hits.length >= 2);
    assert.ok(hits.some((h) => h.symbol === 'UserStore.getUserName' && h.line === 2));
    const exact = await engine.search('lookup');
    assert.equal(exact[0]?.symbol, 'lookup');
    assert.equal(exact[0]?.line, 4);
    const classes = await engine.search('user', { kind: 'class' });
    assert.deepEqual(classes.map((h) => h.symbol), ['UserStore']);
    await assert.rejects(engine.search('   '), (e: unknown) => EngineError.is(e, 'required'));
    await assert.rejects(engine.search('?? !!'), (e: unknown) => EngineError.is(e, 'invalid_input'));
    await engine.dispose();
  });
});
