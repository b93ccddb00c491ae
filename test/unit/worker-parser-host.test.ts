/** The worker pool wakes only the workers a request needs and stops them when idle, parsing again on demand. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LANGUAGES } from '../../src/core/parse/languages';
import { createWorkerParserHost } from '../../src/node/worker-parser-host';
import { ASSET_ROOT } from '../helpers/workspace';

const request = (i: number) => ({ path: `f${i}.ts`, language: 'typescript', text: `export function f${i}() { return ${i}; }\n` });

describe('worker parser host', () => {
  it('sizes the pool to the request, stops idle workers, and restarts them', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 2, 300, 2);
    try {
      assert.equal(host.running(), 0, 'no worker before the first request');
      const [one] = await host.parse([request(1)]);
      assert.equal(one!.symbols[0]?.name, 'f1');
      assert.equal(host.running(), 1, 'one file wakes one worker');
      const many = await host.parse([1, 2, 3, 4].map(request));
      assert.deepEqual(many.map((r) => r.symbols[0]?.name), ['f1', 'f2', 'f3', 'f4']);
      assert.equal(host.running(), 2);
      await sleep(900);
      assert.equal(host.running(), 0, 'idle workers were stopped');
      const [again] = await host.parse([request(5)]);
      assert.equal(again!.symbols[0]?.name, 'f5', 'and parsing works again afterwards');
    } finally {
      await host.dispose();
    }
  });

  it('keeps a language few files use on one worker: its query is compiled once, not on each', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 2, undefined, 2);
    try {
      const big = (i: number) => ({ path: `big${i}.ts`, language: 'typescript', text: `export const v${i} = [\n${'  1,\n'.repeat(8_000)}];\n` });
      const small = (i: number) => ({ path: `s${i}.py`, language: 'python', text: `def s${i}():\n    return ${i}\n` });
      const results = await host.parse([...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(big), small(1), small(2)]);
      assert.deepEqual(results.filter((r) => r.error), []);
      assert.deepEqual(results.slice(10).map((r) => r.symbols[0]?.name), ['s1', 's2']);
      const languages = host.languages();
      assert.deepEqual(languages.map((l) => l.includes('typescript')), [true, true], 'the big language is spread over both');
      assert.equal(languages.filter((l) => l.includes('python')).length, 1, `python on one worker: ${JSON.stringify(languages)}`);
    } finally {
      await host.dispose();
    }
  });

  it('keeps that language on its worker while the batch holds files of a language every worker has to even the load out', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 2, undefined, 2);
    try {
      const ts = (i: number, lines: number) => ({ path: `t${i}.ts`, language: 'typescript', text: `export const v${i} = [\n${'  1,\n'.repeat(lines)}];\n` });
      const py = (i: number, lines: number) => ({ path: `p${i}.py`, language: 'python', text: `def p${i}():\n${'    x = 1\n'.repeat(lines)}    return ${i}\n` });
      // TypeScript on both workers, Python on one.
      await host.parse([...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => ts(i, 8_000)), py(0, 1)]);
      assert.deepEqual(host.languages().map((l) => l.includes('typescript')), [true, true]);
      // ~600k characters of Python and ~400k of TypeScript: placed largest first, the third Python file found its
      // worker 400k ahead, past the cost of a query, and went to the other one.
      const results = await host.parse([py(1, 20_000), py(2, 20_000), py(3, 20_000), ...[21, 22, 23, 24, 25, 26, 27, 28, 29, 30].map((i) => ts(i, 8_000))]);
      assert.deepEqual(results.filter((r) => r.error), []);
      const languages = host.languages();
      assert.equal(languages.filter((l) => l.includes('python')).length, 1, `python on one worker: ${JSON.stringify(languages)}`);
    } finally {
      await host.dispose();
    }
  });

  it('loads every grammar when batches of different languages reach one worker at once', async () => {
    // One worker, one request per language, all in flight together: grammar loads interleave unless serialised.
    const host = createWorkerParserHost(ASSET_ROOT, 1);
    try {
      const results = await Promise.all(LANGUAGES.map((l) => host.parse([{ path: `x.${l.id}`, language: l.id, text: 'x\n' }])));
      const failed = results.flat().filter((r) => r.error).map((r) => `${r.language}: ${r.error!.message}`);
      assert.deepEqual(failed, []);
      assert.deepEqual(await host.unavailable(), {});
    } finally {
      await host.dispose();
    }
  });

  it('answers the batches a worker is sent in the order they came, a big one first before a small one after it', async () => {
    // Handled as they arrived, the small batch (a grammar of its own to load) overtook the big one, so a run's first
    // batch came back no sooner than the ones behind it.
    const host = createWorkerParserHost(ASSET_ROOT, 1);
    try {
      const done: string[] = [];
      const big = host.parse(Array.from({ length: 40 }, (_, i) => request(i))).then(() => done.push('big'));
      const small = host.parse([{ path: 's.py', language: 'python', text: 'def s():\n    return 1\n' }]).then(() => done.push('small'));
      await Promise.all([big, small]);
      assert.deepEqual(done, ['big', 'small']);
    } finally {
      await host.dispose();
    }
  });

  it('leaves a core to the thread that starts the workers unless the work is big, even for a batch of many files', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 2, 300, 1);
    try {
      const results = await host.parse([1, 2, 3, 4, 5, 6].map(request));
      assert.deepEqual(results.map((r) => r.symbols[0]?.name), ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
      assert.equal(host.running(), 1, 'a small batch: the lean pool');
      host.warm!(Number.POSITIVE_INFINITY);
      await sleep(100);
      assert.equal(host.running(), 1, 'a run of unknown size starts the lean pool');
      host.warm!(5_000, 12 << 20);
      for (let i = 0; i < 100 && host.running() < 2; i++) await sleep(20);
      assert.equal(host.running(), 2, 'a run announcing 12 MB of source gets a worker per core');
      await host.parse([request(7)]);
      assert.equal(host.running(), 2, 'and keeps it for its later batches');
      await sleep(900);
      assert.equal(host.running(), 0, 'stopped when idle');
      await host.parse([1, 2, 3].map(request));
      assert.equal(host.running(), 1, 'the run\'s size is forgotten with its workers');
    } finally {
      await host.dispose();
    }
  });

  it('starts its workers on warm(), before any parse, and stops them when idle', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 2, 300);
    try {
      host.warm!(Number.POSITIVE_INFINITY, 12 << 20);
      for (let i = 0; i < 100 && host.running() < 2; i++) await sleep(20);
      assert.equal(host.running(), 2, 'both workers started without a parse');
      const [one] = await host.parse([request(1)]);
      assert.equal(one!.symbols[0]?.name, 'f1');
      assert.equal(host.running(), 2, 'the warmed workers were used, none added');
      await sleep(900);
      assert.equal(host.running(), 0, 'warmed workers are stopped when idle too');
    } finally {
      await host.dispose();
    }
  });
});
