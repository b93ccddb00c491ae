/**
 * A ParserHost backed by worker threads, so indexing never blocks the host's event loop.
 * Requests are split across workers by size; a worker that dies fails only its own batch (reported per file).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { ParserHost } from '../core/ports';
import type { ParseRequest, ParseResult } from '../core/parse/types';

interface Pending {
  resolve: (r: ParseResult[]) => void;
  reject: (e: Error) => void;
}

export function createWorkerParserHost(assetRoot: string, workers = Math.max(1, Math.min(availableParallelism(), 4))): ParserHost {
  const pool: { worker: Worker; pending: Map<number, Pending> }[] = [];
  let nextId = 1;
  const unavailable: Record<string, string> = {};

  function spawn(): { worker: Worker; pending: Map<number, Pending> } {
    const worker = new Worker(join(assetRoot, 'parse-worker.js'), { workerData: { assetRoot } });
    const slot = { worker, pending: new Map<number, Pending>() };
    worker.on('message', (msg: { id: number; results: ParseResult[]; unavailable: Record<string, string> }) => {
      Object.assign(unavailable, msg.unavailable);
      slot.pending.get(msg.id)?.resolve(msg.results);
      slot.pending.delete(msg.id);
    });
    const fail = (e: Error) => {
      for (const p of slot.pending.values()) p.reject(e);
      slot.pending.clear();
      const i = pool.indexOf(slot);
      if (i >= 0) pool.splice(i, 1);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`parse worker exited with code ${code}`)));
    return slot;
  }

  function send(slot: { worker: Worker; pending: Map<number, Pending> }, requests: ParseRequest[]): Promise<ParseResult[]> {
    const id = nextId++;
    return new Promise<ParseResult[]>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, requests });
    }).catch((e: Error) => requests.map((r) => ({
      path: r.path, language: r.language, error: { code: 'parse_failed' as const, message: e.message },
      hasSyntaxErrors: false, symbols: [], references: [], imports: [], fileAnnotations: {}, chunks: [],
    })));
  }

  return {
    async parse(requests) {
      if (!requests.length) return [];
      while (pool.length < workers) pool.push(spawn());
      // Balance by bytes: largest first onto the lightest worker.
      const shares: ParseRequest[][] = pool.map(() => []);
      const load = pool.map(() => 0);
      for (const r of [...requests].sort((a, b) => b.text.length - a.text.length)) {
        const k = load.indexOf(Math.min(...load));
        shares[k]!.push(r);
        load[k]! += r.text.length;
      }
      const parts = await Promise.all(pool.map((slot, k) => (shares[k]!.length ? send(slot, shares[k]!) : Promise.resolve([]))));
      const byPath = new Map(parts.flat().map((r) => [r.path, r]));
      return requests.map((r) => byPath.get(r.path)!);
    },
    async unavailable() {
      return { ...unavailable };
    },
    async dispose() {
      await Promise.all(pool.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
