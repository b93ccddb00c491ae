/**
 * The panel's Markdown tokenizer in plain Node (no DOM): the tokens of the answer subset, and hostile inputs tokenized
 * in linear time. The hostile inputs run in a worker thread that is terminated at the time limit, so a parser that
 * backtracks fails the test instead of hanging the run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseInline, parseMarkdown } from '../../webview-ui/markdown-parse';
import { hostileMarkdown } from '../helpers/hostile-markdown';

/** Per input; the regex parser this replaced needed ~4 s for 2,000 backticks and hours for 100,000. */
const LIMIT_MS = 1_000;

type Timing = { name: string; chars: number; ms: number };

if (!isMainThread && workerData === 'hostile') {
  for (const { name, text } of hostileMarkdown()) {
    const t0 = performance.now();
    parseMarkdown(text);
    parentPort!.postMessage({ name, chars: text.length, ms: performance.now() - t0 } satisfies Timing);
  }
  parentPort!.postMessage('done');
} else {
  test('code spans: a run of n backticks closes at the next run of exactly n, else it is text', () => {
    assert.deepEqual(parseInline('a `b` c'), [{ kind: 'text', text: 'a ' }, { kind: 'code', code: 'b' }, { kind: 'text', text: ' c' }]);
    assert.deepEqual(parseInline('``x ` y``'), [{ kind: 'code', code: 'x ` y' }]);
    assert.deepEqual(parseInline('``a`'), [{ kind: 'text', text: '``a`' }]);
    assert.deepEqual(parseInline('```a``b```'), [{ kind: 'code', code: 'a``b' }]);
    assert.deepEqual(parseInline('`a\nb`'), [{ kind: 'code', code: 'a\nb' }]);
    assert.deepEqual(parseInline('`'.repeat(7)), [{ kind: 'text', text: '`'.repeat(7) }]);
  });

  test('citations, links, bold and italic tokenize as the answer subset defines them', () => {
    assert.deepEqual(parseInline('[1] [1234] [2](x)'), [
      { kind: 'citation', n: 1, raw: '[1]' }, { kind: 'text', text: ' [1234] ' }, { kind: 'link', label: '2', url: 'x', raw: '[2](x)' },
    ]);
    assert.deepEqual(parseInline('**a _b_** *c*'), [
      { kind: 'strong', children: [{ kind: 'text', text: 'a ' }, { kind: 'em', children: [{ kind: 'text', text: 'b' }] }] },
      { kind: 'text', text: ' ' }, { kind: 'em', children: [{ kind: 'text', text: 'c' }] },
    ]);
    assert.deepEqual(parseInline('snake_case_name 2*3*4'), [{ kind: 'text', text: 'snake_case_name 2*3*4' }]);
    assert.deepEqual(parseInline(`[${'a'.repeat(501)}](x) [a](${'u'.repeat(2001)})`), [{ kind: 'text', text: `[${'a'.repeat(501)}](x) [a](${'u'.repeat(2001)})` }]);
  });

  test('blocks: fences, headings, quotes, lists with continuation lines, paragraphs', () => {
    const blocks = parseMarkdown('# T\n```ts\n`x`\n```\n> q\n- a\n  > under\n  more\n1. n\n\npara\nline');
    assert.deepEqual(blocks.map((b) => b.kind), ['heading', 'code', 'quote', 'list', 'paragraph']);
    assert.deepEqual(blocks[1], { kind: 'code', lang: 'ts', text: '`x`' });
    assert.deepEqual(blocks[3], { kind: 'list', ordered: false, items: [{ inline: [{ kind: 'text', text: 'a' }], continuations: [
      { kind: 'quote', inline: [{ kind: 'text', text: 'under' }] }, { kind: 'line', inline: [{ kind: 'text', text: 'more' }] }] },
    { inline: [{ kind: 'text', text: 'n' }], continuations: [] }] }, 'one list; the first item decides ordered');
    assert.equal(parseMarkdown('####### seven')[0]!.kind, 'paragraph');
    assert.equal(parseMarkdown('# a\u2028b')[0]!.kind, 'paragraph', 'a heading is one line');
  });

  test('hostile Markdown tokenizes in linear time (10k-100k backticks, emphasis and bracket floods, long lines)', { timeout: 60_000 }, async (t) => {
    const timings: Timing[] = [];
    const worker = new Worker(__filename, { workerData: 'hostile' });
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => reject(new Error(`no answer within ${LIMIT_MS * 3} ms after ${timings.at(-1)?.name ?? 'the start'}`)), LIMIT_MS * 3);
        };
        arm();
        worker.on('message', (m: Timing | 'done') => {
          if (m === 'done') return resolve();
          timings.push(m);
          arm();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => (code ? reject(new Error(`worker exited with ${code}`)) : resolve()));
      });
    } finally {
      clearTimeout(timer);
      await worker.terminate();
      t.diagnostic(timings.map((x) => `${x.name}: ${x.chars} chars, ${x.ms.toFixed(1)} ms`).join('; '));
    }
    assert.equal(timings.length, hostileMarkdown().length);
    for (const x of timings) assert.ok(x.ms < LIMIT_MS, `${x.name}: ${x.ms.toFixed(0)} ms for ${x.chars} chars (limit ${LIMIT_MS} ms)`);
  });
}
