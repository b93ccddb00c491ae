/**
 * The indexer's memory limit (EngineConfig.indexMemoryMb) against this process's real resident memory, and the
 * bulk load of a full run (secondary indexes built after the rows): same index either way.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_SQL } from '../../src/core/store/schema';
import { captureLogger, indexPathOf, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function workspace(n: number): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`src/m${i}.ts`] = `export function handler${i}(x: number) { return helper${i}(x); }\nfunction helper${i}(y: number) { return y + ${i}; }\n`;
  const root = makeWorkspace(files);
  roots.push(root);
  return root;
}

async function indexNames(db: Uint8Array | undefined): Promise<string[]> {
  const initSqlJs = (await import('sql.js')).default;
  const SQL = await initSqlJs({ wasmBinary: readFileSync(join('dist', 'sql-wasm.wasm')).buffer as ArrayBuffer });
  const d = db ? new SQL.Database(db) : new SQL.Database();
  if (!db) d.exec(SCHEMA_SQL);
  const names = d.exec("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name")[0]!.values.map((r) => String(r[0]));
  d.close();
  return names;
}

describe('index memory limit', () => {
  it('shrinks batches down to one file under a limit below what the process holds, and indexes everything', async () => {
    const root = workspace(20);
    // 1 MB: any Node process holds far more, so every batch is taken under pressure.
    const log = captureLogger();
    const limited = testEngine(root, { batchSize: 8, indexMemoryMb: 1 }, log);
    const small = await limited.index({ full: true });
    await limited.dispose();
    // Over a limit no process can keep: said in the report (with what was held) and in the log, not silently.
    const rss = process.memoryUsage.rss() / (1024 * 1024);
    assert.equal(small.memoryLimited!.limitMb, 1);
    assert.ok(small.memoryLimited!.peakMb > 10 && small.memoryLimited!.peakMb < rss * 2, `peak ${small.memoryLimited!.peakMb} MB, rss ${rss} MB`);
    assert.equal(log.lines.filter((l) => l.startsWith('warn: indexing went over its memory limit (indexMemoryMb 1 MB)')).length, 1, log.lines.join('\n'));
    assert.equal(small.parsed, 20);
    assert.deepEqual(small.memoryLimited && { smallestBatch: small.memoryLimited.smallestBatch }, { smallestBatch: 1 });
    assert.ok(small.memoryLimited!.shrinks >= 3, `shrinks ${small.memoryLimited!.shrinks}`);
    assert.ok(small.batches > 3, `batches ${small.batches}`);

    const free = testEngine(root, { batchSize: 8, indexMemoryMb: 0 });
    const big = await free.index({ full: true });
    assert.equal(big.parsed, 20);
    assert.equal(big.memoryLimited, undefined);
    // A limit the run stays under reports nothing either.
    const roomy = testEngine(root, { batchSize: 8, indexMemoryMb: 64 * 1024 });
    assert.equal((await roomy.index({ full: true })).memoryLimited, undefined);
    await roomy.dispose();
    assert.equal(big.batches, 3);
    assert.equal((await free.status()).symbols, 40);
    const hits = await free.search('helper17', { limit: 1 });
    assert.equal(hits[0]?.symbol, 'helper17');
    await free.dispose();
  });

  it('builds every secondary index of the schema after a full run bulk-loads its rows', async () => {
    const root = workspace(5);
    const engine = testEngine(root);
    await engine.index({ full: true });
    await engine.dispose();
    assert.deepEqual(await indexNames(readFileSync(indexPathOf(root))), await indexNames(undefined));
  });
});
