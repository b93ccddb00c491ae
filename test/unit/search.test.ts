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
    // One stopword list for the whole engine (src/core/text/stopwords.ts): 'get' and 'should' are noise here as in
    // smart context; the search's own shorter list kept them.
    assert.deepEqual(queryTerms('Where is the getUserName of it'), ['getusername', 'user', 'name']);
    assert.deepEqual(queryTerms('how should I parse args'), ['parse', 'args']);
  });
  it('searches a query of stopwords alone as it is', () => {
    assert.deepEqual(queryTerms('get'), ['get']);
    assert.deepEqual(queryTerms('the'), ['the']);
  });
});

describe('bm25 over the postings counts', () => {
  it('scores rarer terms and shorter documents higher', () => {
    // One term, hit once in the body; 10 chunks, 10 body tokens on average.
    const corpus = (rowsWithHit: number) => ({ docs: 10, avg: [10, 10, 10], docsWithHit: new Uint32Array([0, 0, rowsWithHit]) });
    const hits = new Uint32Array([0, 0, 1]);
    const score = (len: number, rowsWithHit: number, weight = 1) => bm25(corpus(rowsWithHit), hits, 0, 1, [0, 0, len], [1, 1, weight]);
    assert.ok(score(10, 1) > score(10, 5), 'rarer term scores higher');
    assert.ok(score(5, 1) > score(40, 1), 'shorter document scores higher');
    assert.ok(score(10, 1, 2) > score(10, 1), 'column weight applies');
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

  it('lists the definition first, then uses, tests after source (a test callback named alike outranks it on score)', async () => {
    const root = makeWorkspace({
      'src/url.ts': [
        '/** The path of a request URL, without the query string. */',
        'export const getPath = (request: Request): string => {',
        '  const url = request.url',
        "  const start = url.indexOf('/', url.indexOf(':') + 4)",
        '  let i = start',
        '  for (; i < url.length; i++) {',
        '    const charCode = url.charCodeAt(i)',
        '    if (charCode === 37) { return decodeURI(url.slice(start)) }',
        '    else if (charCode === 63) { break }',
        '  }',
        '  return url.slice(start, i)',
        '}',
      ].join('\n'),
      'src/router.ts': [
        "import { getPath } from './url'",
        'export function route(request: Request): string {',
        '  return getPath(request)',
        '}',
      ].join('\n'),
      'src/app.test.ts': [
        "import { App } from './app'",
        "it('uses the host', () => {",
        "  const app = new App({ getPath: (req) => req.url })",
        '})',
        "it('strips the scheme', () => {",
        "  const app = new App({ getPath: (req) => req.url.replace('https://', '') })",
        '})',
      ].join('\n'),
    });
    roots.push(root);
    const engine = testEngine(root);
    await engine.index();
    const where = (hits: Array<{ path: string; line: number }>): string[] => hits.map((h) => `${h.path}:${h.line}`);
    // The plain relevance order (what the oracle's retrieval uses) puts a short test callback above the definition.
    const byScore = await engine.search('getPath', { order: 'relevance' });
    assert.equal(byScore[0]?.path, 'src/app.test.ts', where(byScore).join(' '));
    const hits = await engine.search('getPath');
    assert.equal(`${hits[0]?.path}:${hits[0]?.line}`, 'src/url.ts:2', where(hits).join(' '));
    const firstTest = hits.findIndex((h) => h.path.endsWith('.test.ts'));
    const use = hits.findIndex((h) => h.path === 'src/router.ts');
    assert.ok(use > 0, where(hits).join(' '));
    // Test definitions come after the source definition; a source use after every definition.
    assert.ok(firstTest > 0, where(hits).join(' '));
    assert.ok(hits.slice(0, use).every((h) => h.symbol?.split('.').pop() === 'getPath'), where(hits).join(' '));
    await engine.dispose();
  });
});
