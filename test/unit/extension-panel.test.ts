/** The Oracle panel's host-side checks: inbound message validation, CSP and HTML, and the answer's safe rendering rules. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeNonce, panelCsp, panelHtml } from '../../src/extension/panel/panel-html';
import { parseWebviewMessage, safeRelativePath } from '../../src/extension/panel/panel-messages';
import { pastExchanges } from '../../src/extension/panel/conversation-history';
import { codeSpan, escapeMarkdown } from '../../src/extension/chat/chat-text';
import { queuedText, statusBarContent, statusReport } from '../../src/extension/status-view';
import type { IndexStatus } from '../../src/core/model';
import { linkKind, parsePathRef } from '../../webview-ui/links';
import { cardMessages } from '../../webview-ui/history';
import type { HostMessage } from '../../src/protocol/webview';

test('"Open in editor" of a card restored after a reload carries what made it; only card messages naming that card pass', () => {
  const started = { type: 'askStarted', id: 'a-1', question: 'q', explain: false };
  const ended = { type: 'askEnded', id: 'a-1', cancelled: false };
  assert.deepEqual(parseWebviewMessage({ type: 'openInEditor', key: 'a-1', messages: [started, ended] }), { type: 'openInEditor', key: 'a-1', messages: [started, ended] });
  const bundle = { type: 'bundle', key: 'r-2', refIds: ['x'], result: {} };
  assert.deepEqual(parseWebviewMessage({ type: 'openInEditor', key: 'r-2', messages: [bundle] }), { type: 'openInEditor', key: 'r-2', messages: [bundle] });
  // Another card's message, a type that makes no card, a non-object or too many: the messages are dropped, not the click.
  for (const messages of [[started, { ...ended, id: 'a-2' }], [{ type: 'prefill', question: 'x', id: 'a-1' }], ['a-1'], [], Array(9).fill(started), 'a-1']) {
    assert.deepEqual(parseWebviewMessage({ type: 'openInEditor', key: 'a-1', messages }), { type: 'openInEditor', key: 'a-1' }, JSON.stringify(messages).slice(0, 80));
  }
  assert.deepEqual(cardMessages([started, { type: 'askEvent', id: 'a-2', event: {} }, bundle, ended] as HostMessage[], 'a-1'), [started, ended]);
  assert.deepEqual(cardMessages([started, bundle] as HostMessage[], 'r-2'), [bundle]);
});

test('well-formed webview messages pass, trimmed; everything else is dropped', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready', restored: false });
  assert.deepEqual(parseWebviewMessage({ type: 'ready', restored: true }), { type: 'ready', restored: true });
  assert.deepEqual(parseWebviewMessage({ type: 'openInEditor', key: 'r-3' }), { type: 'openInEditor', key: 'r-3' });
  assert.deepEqual(parseWebviewMessage({ type: 'writeStarterGraph', path: '/etc/passwd' }), { type: 'writeStarterGraph' });
  assert.deepEqual(parseWebviewMessage({ type: 'ask', question: '  where is X?  ', explain: true, extra: 1 }), { type: 'ask', question: 'where is X?', explain: true });
  assert.deepEqual(parseWebviewMessage({ type: 'ask', question: 'q', explain: 'yes' }), { type: 'ask', question: 'q', explain: false });
  assert.deepEqual(parseWebviewMessage({ type: 'open', path: 'src/a.ts', line: 3, endLine: 9 }), { type: 'open', path: 'src/a.ts', line: 3, endLine: 9 });
  assert.deepEqual(parseWebviewMessage({ type: 'open', path: 'src/a.ts', line: 9, endLine: 3 }), { type: 'open', path: 'src/a.ts', line: 9 });
  assert.deepEqual(parseWebviewMessage({ type: 'why', refId: 'billing' }), { type: 'why', refId: 'billing' });
  for (const bad of [null, 'ready', [], {}, { type: 'eval', code: '1' }, { type: 'ask', question: '' }, { type: 'ask', question: 'x'.repeat(4001) },
    { type: 'ask' }, { type: 'stop' }, { type: 'stop', id: 7 }, { type: 'open', path: '../etc/passwd' }, { type: 'open', path: '/etc/passwd' },
    { type: 'open', path: 'C:/x' }, { type: 'open', path: 'file:///etc/passwd' }, { type: 'open', path: 'a\\b' }, { type: 'open', path: 'a//b' },
    { type: 'open', path: 'src/a.ts', line: 0 }, { type: 'why', refId: '' }, { type: '__proto__' }, { type: 'openInEditor' }, { type: 'openInEditor', key: 'x'.repeat(201) }]) {
    const parsed = parseWebviewMessage(bad);
    if (bad && typeof bad === 'object' && 'line' in bad) assert.equal((parsed as { line?: number } | undefined)?.line, undefined, JSON.stringify(bad));
    else assert.equal(parsed, undefined, JSON.stringify(bad));
  }
});

test('paths the panel may open stay inside the workspace', () => {
  assert.equal(safeRelativePath('docs/guide.md'), 'docs/guide.md');
  for (const p of ['..', 'a/../../b', '/abs', 'javascript:alert(1)', 'vscode://x', 'a/./../b', '', 'a\0b']) assert.equal(safeRelativePath(p), undefined, p);
});

test('the panel HTML has a strict CSP with a nonce, and only nonce-bearing scripts', () => {
  const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => i * 7));
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
  const csp = panelCsp({ cspSource: 'https://res.test', nonce });
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'(;|$)`));
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  const html = panelHtml({ cspSource: 'https://res.test', nonce, scriptUri: 'https://res.test/dist/webview.js', styleUri: 'https://res.test/media/panel.css', codiconsUri: 'https://res.test/dist/codicons/codicon.css" onload="x', mode: 'editor' });
  assert.ok(html.includes('<body data-mode="editor">'), 'the webview knows it is the editor tab');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.equal(scripts.length, 1);
  assert.ok(scripts[0]!.includes(`nonce="${nonce}"`));
  assert.ok(!html.includes('" onload="x'), 'attribute values are escaped');
});

test('answer links: citations, workspace paths and http(s) only; javascript: and friends are refused', () => {
  assert.equal(linkKind('3'), 'citation');
  assert.equal(linkKind('src/a.ts:3-9'), 'path');
  assert.equal(linkKind('https://example.com/x'), 'external');
  for (const u of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:x', 'data:text/html,<script>', 'command:workbench.action.x', 'vscode:x', '../x.ts', '/etc/passwd.txt'])
    assert.equal(linkKind(u), 'refused', u);
  assert.deepEqual(parsePathRef('src/a.ts:3-9'), { path: 'src/a.ts', line: 3, endLine: 9 });
  assert.deepEqual(parsePathRef('docs/guide.md'), { path: 'docs/guide.md' });
  assert.equal(parsePathRef('a/../b.ts'), undefined);
});

test('chat text escapes workspace Markdown and HTML', () => {
  assert.equal(escapeMarkdown('[click](javascript:alert(1))'), '\\[click\\]\\(javascript:alert\\(1\\)\\)');
  assert.equal(escapeMarkdown('<img src=x onerror=alert(2)> **b**'), '&lt;img src=x onerror=alert\\(2\\)\\> \\*\\*b\\*\\*');
  assert.equal(codeSpan('a`b'), '`` a`b ``');
  assert.equal(codeSpan('plain'), '`plain`');
});

test('the status bar counts queued changes and names them in the tooltip', () => {
  assert.deepEqual(queuedText({ state: 'ready' }), { text: '', tooltip: '' });
  const q = queuedText({ state: 'ready', freshness: { queued: ['src/a.ts', 'src/b.ts'] } });
  assert.equal(q.text, ' · 2 queued');
  assert.match(q.tooltip, /src\/a\.ts, src\/b\.ts/);
});

test('with several workspace folders the status bar counts all of them and its tooltip names each', () => {
  const folders = [
    { name: 'app', state: 'ready' as const, files: 3 },
    { name: 'ledger', state: 'indexing' as const, progress: { phase: 'parsing' as const, done: 2, total: 5 } },
  ];
  const indexing = statusBarContent({ state: 'indexing', progress: { phase: 'parsing', done: 2, total: 5 }, folders });
  assert.equal(indexing.text, '$(sync~spin) Oracle: indexing 2/5');
  assert.match(indexing.tooltip, /^Indexing 2 workspace folders: 2\/5 files\.\n\nFolders: app: 3 files · ledger: indexing 2\/5\./);
  const status = { exists: true, files: 4, symbols: 9, annotations: 0, chunks: 9, references: 0, imports: 0, filesWithSyntaxErrors: 0, skips: {}, unavailableLanguages: {}, filesByLanguage: { typescript: 4 } } as unknown as IndexStatus;
  const ready = statusBarContent({ state: 'ready', status, folders: [folders[0]!, { name: 'ledger', state: 'ready', files: 1 }] });
  assert.match(ready.tooltip, /Folders: app: 3 files · ledger: 1 file\./);
  assert.doesNotMatch(statusBarContent({ state: 'ready', status, folders: [folders[0]!] }).tooltip, /Folders/, 'one folder: no list');
  assert.ok(statusReport({ state: 'ready', status, folders: [folders[0]!, { name: 'ledger', state: 'ready', files: 1 }] }, 1).some((l) => /folders: +app: 3 files · ledger: 1 file/.test(l)));
});

test('a damaged index journal shows in the status bar and the status report, repaired or not', () => {
  const status = { exists: true, root: '/w', indexPath: '/w/i.db', indexBytes: 1024, files: 3, symbols: 9, annotations: 0, chunks: 9,
    references: 4, imports: 1, filesWithSyntaxErrors: 0, skips: {}, unavailableLanguages: {}, filesByLanguage: { typescript: 3 },
    updatedAt: new Date(0).toISOString() } as unknown as IndexStatus;
  assert.equal(statusBarContent({ state: 'ready', status }).severity, 'normal');
  const journal = { damage: 'corrupt' as const, at: 120, detail: 'the record at byte 120 fails its checksum' };
  const open = statusBarContent({ state: 'ready', status: { ...status, journal } });
  assert.equal(open.severity, 'warning');
  assert.match(open.tooltip, /journal was damaged \(the record at byte 120 fails its checksum\).*not repaired yet/);
  const repaired = statusReport({ state: 'ready', status: { ...status, journal: { ...journal, repairedAt: '2026-01-01T00:00:00Z', reindexed: 2 } } }, 1);
  assert.ok(repaired.some((l) => /journal: .*repaired 2026-01-01T00:00:00Z: 2 files indexed again/.test(l)), repaired.join('\n'));
});

test('why and definition texts for chat keep workspace text inert', async () => {
  const { whyText, definitionsText } = await import('../../src/extension/chat/chat-text');
  const node = { ref_id: 'auth', kind: 'domain', summary: '[x](javascript:alert(1)) <img src=x onerror=y>' };
  const text = whyText({ node, upstream: [], downstream: [{ ...node, ref_id: 'api`gw', edge_kind: 'uses', children: [] }],
    impact: { downstream_direct: 1, downstream_transitive: 0, doc_coverage: 100, stale_count: 0 }, depth: { upstream: 3, downstream: 3 }, truncated: false });
  assert.ok(!text.includes('](javascript:'), text);
  assert.ok(!text.includes('<img'), text);
  assert.match(text, /`` api`gw ``/);
  assert.match(text, /Impact: 1 direct/);
  const defs = definitionsText({ query: 'f', results: [{ name: 'f', qualifiedName: 'f', kind: 'function', path: 'src/a.ts', line: 3, column: 17, endColumn: 18, endLine: 5, signature: 'function f()', preview: 'function f()', source: 'lsp' }] });
  assert.equal(defs, '1. `src/a.ts:3` function `function f()` (lsp)');
});

test('after a reload the panel gets back its own questions and answers from the stored conversation', () => {
  const at = '2026-11-25T12:00:00.000Z';
  const view = { session: 'panel-0123456789ab', recent: [
    { id: 1, tool: 'ask_oracle', input: 'where is X?', output: 'In src/x.ts [1].', at, tokens: 9 },
    { id: 2, tool: 'find_definition', input: 'X', output: 'src/x.ts:3', at, tokens: 3 },
    { id: 3, tool: 'ask_oracle', input: 'and Y?', output: 'Nothing relevant found.', at: 'garbled', tokens: 4 },
  ], tokens: 16, budget: 2000, exchanges: 3 };
  assert.deepEqual(pastExchanges(view), [{ question: 'where is X?', answer: 'In src/x.ts [1].', at: Date.parse(at) }, { question: 'and Y?', answer: 'Nothing relevant found.', at: 0 }]);
  assert.deepEqual(pastExchanges(null), []);
});
