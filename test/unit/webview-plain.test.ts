import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeclaredRef, plainWarnings, timeAgo } from '../../webview-ui/plain';

test('times read as "… ago", never as ISO text', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  assert.equal(timeAgo('2026-11-25T11:59:50Z', now), 'just now');
  assert.equal(timeAgo('2026-11-25T11:58:00Z', now), '2 minutes ago');
  assert.equal(timeAgo('2026-11-25T11:00:00Z', now), '1 hour ago');
  assert.equal(timeAgo('2026-11-24T10:00:00Z', now), 'yesterday');
  assert.equal(timeAgo(now - 21 * 86_400_000, now), '3 weeks ago');
  assert.equal(timeAgo('not a time', now), '');
});

test('bundle warnings in plain words: no max_nodes=, no code_symbols, no max_tokens=', () => {
  const out = plainWarnings('subgraph cut at max_nodes=20; code_symbols lists 100 of 189; max_tokens=6000: dropped 3 text_chunks, 2 code_symbols');
  assert.deepEqual(out, ['Showing the 20 closest related nodes; more exist.', 'Showing 100 of 189 code symbols.', 'Trimmed to fit the size limit: left out 3 doc excerpts, 2 code symbols.']);
  for (const s of out) assert.doesNotMatch(s, /max_nodes|code_symbols|max_tokens|_/);
  assert.deepEqual(plainWarnings('max_tokens=6000: dropped nothing'), []);
  assert.deepEqual(plainWarnings('the graph has 2 load errors (see `context-oracle lint`)'), ['The graph files have 2 problems; run Lint Architecture to see them.']);
  assert.deepEqual(plainWarnings(undefined), []);
});

test('doc coverage applies to declared nodes, not files or symbols', () => {
  assert.equal(isDeclaredRef('greeting'), true);
  assert.equal(isDeclaredRef('src/a.ts'), false);
  assert.equal(isDeclaredRef('src/a.ts::A.b'), false);
});
