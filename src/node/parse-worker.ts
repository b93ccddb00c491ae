/** Worker-thread entry: parses batches with its own tree-sitter runtime and answers with plain results. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ParseRequest, TreeSitterService } from '../core';
import { createNodeAssetLocator } from './assets';

const { assetRoot, runtime } = workerData as { assetRoot: string; runtime?: WebAssembly.Module };
// The runtime and grammars arrive compiled by the thread that started the workers (worker-parser-host.ts).
const compiled = new Map<string, WebAssembly.Module>(runtime ? [['tree-sitter.wasm', runtime]] : []);
const service = new TreeSitterService(createNodeAssetLocator(assetRoot, compiled));

type Batch = { id: number; requests: ParseRequest[]; modules: Record<string, WebAssembly.Module> };
// Batches are parsed one after another, in the order they came: handled as they arrive, a batch waiting on a grammar
// let the next ones start, so the first three of a run came back together, all late (hono: 0.9 s after the first
// was posted, the main thread idle with nothing to write).
// A batch that throws fails the worker, so the host fails its pending batches (worker-parser-host.ts) instead of
// waiting for an answer that never comes; the queue's own catch would otherwise swallow the error.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (msg: Batch) => {
  queue = queue.then(() => parseBatch(msg)).catch((e: unknown) => {
    setImmediate(() => {
      throw e;
    });
  });
});

async function parseBatch(msg: Batch): Promise<void> {
  for (const [file, module] of Object.entries(msg.modules)) compiled.set(file, module);
  const results = [];
  for (const r of msg.requests) results.push(await service.parse(r));
  // Search text and packed content are transferred, not copied: they are most of what a result weighs.
  const transfer: ArrayBuffer[] = [];
  for (const r of results) {
    if (r.content) transfer.push(r.content.buffer as ArrayBuffer);
    for (const c of r.chunks) if (c.utf8) transfer.push(c.utf8.search.buffer as ArrayBuffer);
  }
  parentPort!.postMessage({ id: msg.id, results, unavailable: service.unavailable() }, transfer);
}
