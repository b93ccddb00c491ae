/** Worker-thread entry: parses batches with its own tree-sitter runtime and answers with plain results. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ParseRequest, TreeSitterService } from '../core';
import { createNodeAssetLocator } from './assets';

const service = new TreeSitterService(createNodeAssetLocator((workerData as { assetRoot: string }).assetRoot));

parentPort!.on('message', async (msg: { id: number; requests: ParseRequest[] }) => {
  const results = [];
  for (const r of msg.requests) results.push(await service.parse(r));
  // Search text and packed content are transferred, not copied: they are most of what a result weighs.
  const transfer: ArrayBuffer[] = [];
  for (const r of results) {
    if (r.content) transfer.push(r.content.buffer as ArrayBuffer);
    for (const c of r.chunks) if (c.utf8) transfer.push(c.utf8.search.buffer as ArrayBuffer);
  }
  parentPort!.postMessage({ id: msg.id, results, unavailable: service.unavailable() }, transfer);
});
