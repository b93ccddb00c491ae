/**
 * What the serving benches share: an engine opened on an existing index the way long-running hosts run it (their
 * heap policy; opened, then warmed once the index is ready, as the MCP gate and the language server do), with both
 * steps timed, and the statistics they report.
 */
import { resolve } from 'node:path';
import type { Engine } from '../../src/core/engine';
import { applyHostHeapPolicy } from '../../src/node/heap-policy';
import { createStderrLogger } from '../../src/node/logger';
import { createNodeEngine } from '../../src/node/node-engine';

export const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
export const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

/** CPU time of this process (all threads) since `c0`, in ms: on a shared machine wall time also counts waiting. */
export const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

export interface ServingEngine {
  engine: Engine;
  openMs: number;
  warmMs: number;
  openCpuMs: number;
  warmCpuMs: number;
  /** After the warm-up, in MB: the process, V8's heap in use, and memory outside it (sql.js's WASM heap, typed arrays). */
  memory: { rss: number; heapUsed: number; external: number };
}

export async function openServingEngine(dir: string, db: string): Promise<ServingEngine> {
  applyHostHeapPolicy();
  const engine = createNodeEngine({ root: dir, indexPath: db, logger: createStderrLogger('warn'), assetRoot: resolve('dist') });
  let t0 = process.hrtime.bigint();
  let c0 = process.cpuUsage();
  await engine.status();
  const openMs = ms(t0);
  const openCpuMs = cpuMs(c0);
  t0 = process.hrtime.bigint();
  c0 = process.cpuUsage();
  await engine.warm();
  const warmMs = ms(t0);
  const warmCpuMs = cpuMs(c0);
  const m = process.memoryUsage();
  const mb = (n: number): number => Math.round(n / 2 ** 20);
  return { engine, openMs, warmMs, openCpuMs, warmCpuMs, memory: { rss: mb(m.rss), heapUsed: mb(m.heapUsed), external: mb(m.external) } };
}
