/** Response budgets and cursors: pages fit max_tokens exactly as the tokenizer counts, and cursors are bound to their call. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as tokenizer from 'gpt-tokenizer';
import { countTokens, tokensWithin } from '../../src/core/tokens';
import { clampBudget, fitObject, HARD_CAP_TOKENS, pageList, shrinkToFit, STAMP_TOKENS } from '../../src/mcp/budget';
import { argsFingerprint, decodeCursor, encodeCursor } from '../../src/mcp/cursor';
import { ToolError } from '../../src/mcp/errors';

const items = Array.from({ length: 300 }, (_, i) => ({ path: `src/module${i}/file${i}.ts`, line: i + 1, snippet: `export function handler${i}(request: Request): Response { return respond(request, ${i}); }` }));
const fp = argsFingerprint('search_code', { query: 'handler' });

function page(offset: number, limit: number, maxTokens: number | undefined) {
  return pageList({ tool: 'search_code', fingerprint: fp, head: { query: 'handler' }, key: 'results', items: items.slice(offset, offset + limit), offset, moreAfter: items.length > offset + limit, total: items.length, maxTokens });
}

describe('MCP response budget', () => {
  it('fills a page up to max_tokens, less the freshness stamp\'s room, and never past it', () => {
    for (const budget of [200, 500, 1000, 3000]) {
      const p = page(0, 300, budget);
      assert.ok(p.tokens <= budget - STAMP_TOKENS, `${p.tokens} > ${budget} - ${STAMP_TOKENS}`);
      assert.equal(countTokens(p.text), p.tokens);
      // The same page with one more item would not have fitted.
      const body = JSON.parse(p.text) as { results: unknown[] };
      body.results.push(items[p.shown.length]);
      assert.ok(countTokens(JSON.stringify(body)) > budget - STAMP_TOKENS, `the page is not left needlessly short (${p.shown.length} items at ${budget})`);
    }
  });

  it('the default budget stays under 10k tokens and the hard cap holds whatever is asked', () => {
    assert.ok(page(0, 300, undefined).tokens <= 10_000);
    assert.equal(clampBudget(1_000_000), HARD_CAP_TOKENS);
    assert.ok(page(0, 300, 1_000_000).tokens <= HARD_CAP_TOKENS);
  });

  it('walking the cursors returns every item once, in order', () => {
    const seen: typeof items = [];
    let offset = 0;
    for (let guard = 0; guard < 500; guard++) {
      const p = page(offset, 40, 700);
      const body = JSON.parse(p.text) as { results: typeof items; page?: { next_cursor?: string; note?: string; total?: number } };
      seen.push(...body.results);
      assert.equal(body.page?.total, 300);
      if (!body.page?.next_cursor) break;
      assert.match(body.page.note ?? '', /cursor=next_cursor for results from #\d+/);
      offset = decodeCursor(body.page.next_cursor, fp, 'search_code').offset;
    }
    assert.deepEqual(seen, items);
  });

  it('a single item larger than the budget is shortened and marked, not dropped', () => {
    const huge = [{ path: 'big.js', line: 1, snippet: items.map((i) => i.snippet).join(';') }];
    const p = pageList({ tool: 't', fingerprint: 'f', head: {}, key: 'results', items: huge, offset: 0, moreAfter: false, maxTokens: 300 });
    assert.ok(p.tokens <= 300, String(p.tokens));
    assert.equal(p.truncated, true);
    assert.match(p.text, /\[cut \d+ chars\]/);
    assert.match(p.text, /first item alone exceeded max_tokens/);
  });

  it('fitObject and shrinkToFit cut the longest strings until the object fits', () => {
    const body = { title: 'ok', parts: ['a'.repeat(5_000), 'b'.repeat(20_000)] };
    const fitted = fitObject(body, 500);
    assert.ok(fitted.tokens <= 500);
    assert.match(fitted.text, /"truncated":"shortened to fit max_tokens=500"/);
    assert.deepEqual(fitObject({ a: 1 }, 500).text, '{"a":1}');
    const shrunk = shrinkToFit(body, 800);
    assert.ok(countTokens(JSON.stringify(shrunk)) <= 800);
    assert.equal(body.parts[1]!.length, 20_000, 'the original is untouched');
  });
});

describe('MCP cursors', () => {
  it('fingerprints ignore page size but not what is listed', () => {
    assert.equal(argsFingerprint('t', { query: 'a', limit: 5, max_tokens: 300, cursor: 'x' }), argsFingerprint('t', { query: 'a' }));
    assert.notEqual(argsFingerprint('t', { query: 'a' }), argsFingerprint('t', { query: 'b' }));
    assert.notEqual(argsFingerprint('t', { query: 'a' }), argsFingerprint('u', { query: 'a' }));
    assert.equal(argsFingerprint('t', { a: 1, b: 2 }), argsFingerprint('t', { b: 2, a: 1 }), 'argument order does not matter');
  });

  it('round-trips and refuses foreign or damaged cursors with invalid_input', () => {
    const c = encodeCursor(fp, { offset: 42 });
    assert.deepEqual(decodeCursor(c, fp, 'search_code'), { offset: 42 });
    assert.deepEqual(decodeCursor(undefined, fp, 'search_code'), { offset: 0 });
    for (const bad of ['garbage', encodeCursor('other', { offset: 1 }), Buffer.from('{"f":"x","o":-1}').toString('base64url')]) {
      assert.throws(() => decodeCursor(bad, fp, 'search_code'), (e: unknown) => e instanceof ToolError && e.code === 'invalid_input');
    }
  });
});

describe('token counting of hostile text', () => {
  // Encoding a word whole grows with the square of its length: measured here, an 8 KB slice 33 ms, the 80 KB word
  // 3.1 s (~90x). So the check is a ratio against encoding 8 KB slices in the same run (best of 3), which load slows
  // alike, not a wall-clock limit: a prefix-scaled count costs about one slice, a whole-word count fails the 10x bound.
  it('counts an 80 KB identifier at the cost of a short prefix, not of the whole word, within 5% of its whole count', { timeout: 60_000 }, () => {
    let seed = 7;
    const letter = (): string => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return String.fromCharCode(97 + (seed % 26));
    };
    const word = Array.from({ length: 80 * 1024 }, letter).join('');
    // The whole word's count, from a prefix short enough to encode whole quickly, scaled.
    const prefix = word.slice(0, 8 * 1024);
    const expected = tokenizer.countTokens(prefix) * 10;
    // Three other 8 KB slices: the tokenizer caches a text it has seen, so timing the same one again measures nothing.
    let prefixMs = Infinity;
    for (let run = 1; run <= 3; run++) {
      const t = performance.now();
      tokenizer.countTokens(word.slice(run * 8 * 1024, (run + 1) * 8 * 1024));
      prefixMs = Math.min(prefixMs, performance.now() - t);
    }
    const started = performance.now();
    const tokens = countTokens(word);
    const ms = performance.now() - started;
    assert.ok(ms < 10 * prefixMs + 100, `${ms.toFixed(0)} ms against ${prefixMs.toFixed(0)} ms for the 8 KB prefix`);
    assert.ok(Math.abs(tokens - expected) / expected < 0.05, `${tokens} vs ~${expected}`);
    assert.equal(tokensWithin(word, 100), false);
    assert.equal(tokensWithin(word, tokens), tokens);
  });

  // Encoding 1 MB whole would take hours (see above); 20 s is far from that and from a loaded machine's slowest count.
  it('counts 1 MB runs of one letter, of punctuation and of spaces quickly', { timeout: 20_000 }, () => {
    for (const ch of ['a', '=', ' ', '\u00e9', '\u{1F600}']) assert.ok(countTokens(ch.repeat(1 << 20)) > 0);
  });

  it('counts text without long runs exactly as the tokenizer does', () => {
    const texts = [
      JSON.stringify(items),
      `${'word '.repeat(2_000)}\n\n  indented(code) { return x; }\n`,
      `a long ${'x'.repeat(256)} run at the limit, then ${'y'.repeat(100)}`,
      '\u{1F600} emoji, accents é and CJK 中文 '.repeat(50),
    ];
    for (const text of texts) assert.equal(countTokens(text), tokenizer.countTokens(text));
  });
});

describe('MCP budgets under hostile requests', () => {
  const query = Array.from({ length: 150 }, (_, i) => ['session', 'store', 'login', 'route', 'handler'][i % 5]).join(' ');

  it('a 150-word query at max_tokens=200 cuts its echo and still fits, instead of looping', { timeout: 2_000 }, () => {
    const p = pageList({ tool: 'search_code', fingerprint: fp, head: { query }, key: 'results', items: items.slice(0, 20), offset: 0, moreAfter: true, maxTokens: 200 });
    assert.ok(p.tokens <= 200 - STAMP_TOKENS, String(p.tokens));
    const body = JSON.parse(p.text) as { query: string; results: unknown[] };
    assert.match(body.query, /^session store .*… \[cut \d+ chars\]$/);
    assert.ok(body.results.length >= 1);
  });

  it('a head that cannot be cut to fit is invalid_input naming the long argument', { timeout: 2_000 }, () => {
    const head = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field${i}`, i]));
    assert.throws(
      () => pageList({ tool: 'search_code', fingerprint: fp, head: { ...head, query }, key: 'results', items: items.slice(0, 5), offset: 0, moreAfter: false, maxTokens: 200 }),
      (e: unknown) => e instanceof ToolError && e.code === 'invalid_input' && /max_tokens=200.*`query` \([\d,]+ characters/.test(e.message),
    );
  });

  it('shrinkToFit ends for budgets of zero or less', { timeout: 2_000 }, () => {
    for (const max of [0, -1, -500]) {
      const shrunk = shrinkToFit({ a: 'x'.repeat(100_000), b: ['y'.repeat(5_000)] }, max);
      assert.ok(JSON.stringify(shrunk).length < 200, JSON.stringify(shrunk));
    }
  });

  it('fitObject honours the budget asked for even when many short fields overflow it', () => {
    const body = {
      root: '/tmp/workspace', exists: true, files: 5,
      filesByLanguage: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`lang${i}`, i])),
      lastRun: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`counter${i}`, i * 7])),
      session: { id: 'abc', calls: 3, byTool: { search_code: 2, index_status: 1 } },
    };
    for (const max of [200, 300]) {
      const fitted = fitObject(body, max);
      assert.ok(fitted.tokens <= max - STAMP_TOKENS, `${fitted.tokens} at ${max}`);
      assert.equal(countTokens(fitted.text), fitted.tokens);
      const parsed = JSON.parse(fitted.text) as Record<string, unknown>;
      assert.equal(parsed.exists, true, 'the first fields stay');
      assert.match(String(parsed.truncated), /max_tokens=/);
    }
  });
});
