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
    const host = createWorkerParserHost(ASSET_ROOT, 2, 300);
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
});
