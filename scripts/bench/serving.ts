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

export async function openServingEngine(dir: string, db: string): Promise<{ engine: Engine; openMs: number; warmMs: number }> {
  applyHostHeapPolicy();
  const engine = createNodeEngine({ root: dir, indexPath: db, logger: createStderrLogger('warn'), assetRoot: resolve('dist') });
  let t0 = process.hrtime.bigint();
  await engine.status();
  const openMs = ms(t0);
  t0 = process.hrtime.bigint();
  await engine.warm();
  return { engine, openMs, warmMs: ms(t0) };
}
