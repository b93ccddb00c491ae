/**
 * A parse worker whose batch throws must fail (its host then fails the pending batches), never go quiet: a host
 * waiting on an answer that never comes would hang the index run.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ASSET_ROOT } from '../helpers/workspace';

it('a batch that throws fails the parse worker instead of leaving its host waiting', async () => {
  const worker = new Worker(join(ASSET_ROOT, 'parse-worker.js'), { workerData: { assetRoot: ASSET_ROOT } });
  try {
    const outcome = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('no error within 10 s'), 10_000);
      worker.on('error', (e) => {
        clearTimeout(timer);
        resolve(`error: ${e.message}`);
      });
      worker.on('message', () => {
        clearTimeout(timer);
        resolve('answered a malformed batch');
      });
      // requests is not a list: parseBatch throws on it.
      worker.postMessage({ id: 1, requests: null, modules: {} });
    });
    assert.match(outcome, /^error: /);
  } finally {
    await worker.terminate();
  }
});
