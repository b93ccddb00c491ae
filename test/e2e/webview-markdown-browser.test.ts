/**
 * The answer Markdown renderer in a real browser (headless Chromium over CDP, the module bundled by esbuild into a
 * blank page): answers as before for ordinary Markdown, and hostile inputs (100k backticks, emphasis and bracket
 * floods, nested brackets, long lines) render in milliseconds; the backtracking regex it replaced took seconds on
 * 2,000 backticks and never finished on 10,000. Skips with the reason where chromium is missing, fails under CI=true.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { scriptedPages } from '../helpers/chromium';
import { hostileMarkdown } from '../helpers/hostile-markdown';

/** Each hostile input must render (parse + DOM) within this, in a browser on a busy CI machine. */
const LIMIT_MS = 2_000;

const PAGE_SCRIPT = `
import { renderMarkdown } from './webview-ui/markdown';
import { hostileMarkdown } from './test/helpers/hostile-markdown';
const links = { citation() {}, path() {}, hasCitation: (n: number) => n <= 3 };
const w = window as unknown as Record<string, unknown>;
w.renderHtml = (text: string) => {
  const d = document.createElement('div');
  d.appendChild(renderMarkdown(text, links));
  return d.innerHTML;
};
w.timeHostile = (name: string) => {
  const input = hostileMarkdown().find((x) => x.name === name)!;
  const host = document.createElement('div');
  const t0 = performance.now();
  host.appendChild(renderMarkdown(input.text, links));
  document.body.appendChild(host);
  const ms = performance.now() - t0;
  host.remove();
  return { ms, chars: input.text.length, nodes: host.getElementsByTagName('*').length };
};`;

// Rendered by the regex renderer before the rewrite (citations 1-3 known): ordinary answers must not change.
const GOLDEN: Array<[string, string]> = [
  ['The banner is framed by `formatBanner` in `src/format.ts:3-9` [1] and checked in [2].', '<p>The banner is framed by <code>formatBanner</code> in <a href="#" title="Open src/format.ts:3-9" class="action path-link"><code>src/format.ts:3-9</code></a> <a href="#" title="Open citation 1" class="action citation-link" data-n="1">[1]</a> and checked in <a href="#" title="Open citation 2" class="action citation-link" data-n="2">[2]</a>.</p>'],
  ['**Bold** and __bold__, *italic* and _italic_, snake_case_name and 2*3*4 stay text.', '<p><strong>Bold</strong> and <strong>bold</strong>, <em>italic</em> and <em>italic</em>, snake_case_name and 2*3*4 stay text.</p>'],
  ['# Title\n## Sub *x*\n###### six\n####### seven', '<h3>Title</h3><h4>Sub <em>x</em></h4><h6>six</h6><p>####### seven</p>'],
  ['- one `a`\n- two **b** [1]\n  > quoted under two\n  wrapped text\n\nafter', '<ul><li>one <code>a</code></li><li>two <strong>b</strong> <a href="#" title="Open citation 1" class="action citation-link" data-n="1">[1]</a><blockquote>quoted under two</blockquote><div>wrapped text</div></li></ul><p>after</p>'],
  ['1. first\n2) second\n10. tenth\n\npara', '<ol><li>first</li><li>second</li><li>tenth</li></ol><p>para</p>'],
  ['> a quote with [link](src/a.ts:3)\n> and **more**', '<blockquote>a quote with <a href="#" title="Open src/a.ts:3" class="action path-link">link</a>\nand <strong>more</strong></blockquote>'],
  ['```ts\nconst x = `y`;\n**not bold**\n```\ntext after', '<pre class="code-block"><code lang="ts">const x = `y`;\n**not bold**</code></pre><p>text after</p>'],
  ['~~~\nplain fence\n~~~', '<pre class="code-block"><code>plain fence</code></pre>'],
  ['[text](https://example.com/x) [bad](javascript:alert(1)) [cite](2) [cite](9) [p](docs/guide.md)', '<p><span class="external-link" title="https://example.com/x">text (https://example.com/x)</span> <span class="refused-link" title="link refused">[bad](javascript:alert(1)</span>) <a href="#" title="Open citation 2" class="action citation-link" data-n="2">cite</a> <span class="refused-link" title="link refused">[cite](9)</span> <a href="#" title="Open docs/guide.md" class="action path-link">p</a></p>'],
  ['<script>alert(1)</script> <img src=x onerror=alert(2)>', '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;</p>'],
  ['a ``code with ` inside`` b', '<p>a <code>code with ` inside</code> b</p>'],
  ['unclosed `tick and *star and [bracket', '<p>unclosed `tick and *star and [bracket</p>'],
  ['line one\nline two\r\nline three\rline four', '<p>line one\nline two\nline three\nline four</p>'],
  ['`` ` `` and ``` `` ```', '<p><code>`</code> and <code>``</code></p>'],
  ['[1][2][3][4] [12] [1234] [1](x)', '<p><a href="#" title="Open citation 1" class="action citation-link" data-n="1">[1]</a><a href="#" title="Open citation 2" class="action citation-link" data-n="2">[2]</a><a href="#" title="Open citation 3" class="action citation-link" data-n="3">[3]</a>[4] [12] [1234] <span class="refused-link" title="link refused">[1](x)</span></p>'],
  ['* star item\n+ plus item\n-not item', '<ul><li>star item</li><li>plus item</li></ul><p>-not item</p>'],
  ['**a `b** c`', '<p><strong>a `b</strong> c`</p>'],
  ['x*y*z _a_b_ *a*b *a* b', '<p>x*y*z _a_b_ *a*b <em>a</em> b</p>'],
  ['  indented para\n\n    deeper', '<p>  indented para</p><p>    deeper</p>'],
  ['#nospace heading', '<p>#nospace heading</p>'],
  ['> q1\nnot q\n> q2', '<blockquote>q1</blockquote><p>not q</p><blockquote>q2</blockquote>'],
  ['code: `src/a.ts:3-9`, `not a path`, `../x.ts`', '<p>code: <a href="#" title="Open src/a.ts:3-9" class="action path-link"><code>src/a.ts:3-9</code></a>, <code>not a path</code>, <code>../x.ts</code></p>'],
  ['***triple*** ___under___', '<p>*<strong>triple</strong>* _<strong>under</strong>_</p>'],
  ['[nested [brackets]](src/a.ts) [a]( spaced )', '<p>[nested [brackets]](src/a.ts) [a]( spaced )</p>'],
  ['- a\n\n- b', '<ul><li>a</li></ul><ul><li>b</li></ul>'],
];

const newPage = scriptedPages(PAGE_SCRIPT, '<!doctype html><body></body>');
let page: Page;

async function open(t: TestContext): Promise<boolean> {
  const opened = await newPage(t);
  if (opened) page = opened;
  return opened !== undefined;
}

/** Resolves with `work`, or rejects after `ms` (a page stuck in a regex never answers). */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

test('in the browser: ordinary answers render as they did before the rewrite', { timeout: 30_000 }, async (t) => {
  if (!(await open(t))) return;
  const rendered = await page.evaluate((texts) => texts.map((s) => (globalThis as unknown as { renderHtml(s: string): string }).renderHtml(s)), GOLDEN.map(([text]) => text));
  GOLDEN.forEach(([text, html], i) => assert.equal(rendered[i], html, text));
  await page.close();
});

test('in the browser: hostile Markdown renders in linear time', { timeout: 60_000 }, async (t) => {
  if (!(await open(t))) return;
  const lines: string[] = [];
  try {
    for (const { name } of hostileMarkdown()) {
      const r = await within(page.evaluate((n) => (globalThis as unknown as { timeHostile(n: string): { ms: number; chars: number } }).timeHostile(n), name), LIMIT_MS * 2, name);
      lines.push(`${name}: ${r.chars} chars, ${r.ms.toFixed(1)} ms`);
      assert.ok(r.ms < LIMIT_MS, `${name}: ${r.ms.toFixed(0)} ms for ${r.chars} chars (limit ${LIMIT_MS} ms)`);
    }
  } finally {
    t.diagnostic(lines.join('; '));
  }
});
