/** Entity extraction and question terms: what the question names, and how sure we are that it is code. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractEntities, locateSubject, mentionsTests } from '../../src/core/question/entities';
import { classifyPath } from '../../src/core/context/paths';
import { questionTerms } from '../../src/core/context/terms';

const kinds = (q: string): Record<string, string> => Object.fromEntries(extractEntities(q).map((e) => [e.text, e.kind]));

describe('extractEntities', () => {
  it('finds CamelCase, snake_case, CONSTANTS, quoted, qualified and path mentions', () => {
    const k = kinds('Why does AuthService call get_user_name with MAX_RETRIES in `auth.service.login()` from src/auth/login.ts and "HTTPClient"?');
    assert.equal(k.AuthService, 'camel');
    assert.equal(k.get_user_name, 'snake');
    assert.equal(k.MAX_RETRIES, 'constant');
    assert.equal(k['auth.service.login'], 'quoted');
    assert.equal(k['src/auth/login.ts'], 'path');
    assert.equal(k.HTTPClient, 'quoted');
  });

  it('ranks code-looking mentions above plain words, and drops stopwords and programming prose', () => {
    const es = extractEntities('Fix: the parser returns undefined when the tokenizer sees an emoji');
    const byText = new Map(es.map((e) => [e.text, e]));
    assert.ok(!byText.has('the') && !byText.has('returns') && !byText.has('undefined') && !byText.has('when'));
    assert.equal(byText.get('tokenizer')?.kind, 'word');
    assert.ok(byText.get('tokenizer')!.confidence < 0.5);
    // "Fix" opens the sentence: prose, not a type name.
    assert.ok(!byText.has('Fix') || byText.get('Fix')!.kind === 'word');
    assert.equal(kinds('Cache the Parser instance').Parser, 'camel');
  });

  it('marks the subject of "where is X defined?" and skips prose dots', () => {
    assert.equal(locateSubject('Where is parseAcceptLanguage defined?'), 'parseAcceptLanguage');
    assert.equal(locateSubject('where is the function `Cart.total` declared'), 'Cart.total');
    assert.equal(locateSubject('how does routing work?'), undefined);
    const subject = extractEntities('Where is build defined?').find((e) => e.subject);
    assert.equal(subject?.text, 'build');
    assert.ok(!('e.g' in kinds('use a cache, e.g. an LRU')));
  });

  it('knows when the question is about tests (first line only)', () => {
    assert.equal(mentionsTests('Which tests cover the router?'), true);
    assert.equal(mentionsTests('Fix router matching\n\n- add tests'), false);
  });
});

describe('questionTerms and path classes', () => {
  it('splits identifiers, keeps the whole, weighs the first line up', () => {
    const { terms, weights } = questionTerms('Fix getUserName crash\n\nthe cache was stale');
    assert.deepEqual(terms.slice(0, 5), ['fix', 'getusername', 'user', 'name', 'crash']); // 'get' is a stopword
    assert.ok(weights[terms.indexOf('getusername')]! > weights[terms.indexOf('stale')]!);
    assert.deepEqual(new Set(questionTerms('one line only please').weights), new Set([1]));
  });

  it('classifies tests, generated copies, examples and tooling generically', () => {
    assert.equal(classifyPath('src/router.test.ts'), 'test');
    assert.equal(classifyPath('pkg/server_test.go'), 'test');
    assert.equal(classifyPath('tests/test_api.py'), 'test');
    assert.equal(classifyPath('deno_dist/router.ts'), 'generated');
    assert.equal(classifyPath('vendor/lib/x.go'), 'generated');
    assert.equal(classifyPath('examples/basic/main.rs'), 'aux');
    assert.equal(classifyPath('scripts/release.mjs'), 'tooling');
    assert.equal(classifyPath('src/distance.ts'), 'source');
  });
});
