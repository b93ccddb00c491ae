/**
 * The index's write path alone (issue 21): the files an index holds are parsed once, in-process, and their results
 * are then written into a new bulk-loaded index, in batches of 48 inside transactions as a run writes them, several
 * rounds; each round's CPU is reported. What the main thread of a full index spends writing rows, without the
 * parse workers competing for the cores, so a change to store/file-writes.ts can be measured on a loaded machine.
 * Built by `node esbuild.mjs bench` into out/bench/write-path.js; run on an index built by
 * `context-oracle index --root DIR --db DB`: `node out/bench/write-path.js DB DIR [--rounds N]`. Round 1 pays for
 * compiling sql.js and the write code; later rounds are steady state (the minimum is the least disturbed by load).
 * An index run keeps sql.js on baseline WebAssembly code: `node --liftoff-only out/bench/write-path.js …` does too.
 * With `--persist`, each round builds its index in a draft file as a full run does and then persists it as a full
 * run does (store/persistence.ts: compaction, the postings' merge and the packed copy), and that step's CPU is
 * reported apart: what a full index spends after its last row.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { TreeSitterService, type ParseResult } from '../../src/core';
import { ChangeRecorder } from '../../src/core/store/changes';
import { IndexDatabase } from '../../src/core/store/database';
import type { FileFacts } from '../../src/core/store/file-writes';
import { persistRun } from '../../src/core/store/persistence';
import { createNodeAssetLocator } from '../../src/node/assets';
import { createFileIndexStorage } from '../../src/node/index-storage';

const BATCH = 48;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [db, dir] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!db || !dir) throw new Error('usage: write-path.js DB DIR [--rounds N] [--persist]');
  const rounds = Number(args[args.indexOf('--rounds') + 1]) || 5;
  const persist = args.includes('--persist');
  const assets = createNodeAssetLocator(resolve('dist'));

  const SQL = await initSqlJs({ locateFile: (f: string) => join(resolve('dist'), f) });
  const index = new SQL.Database(readFileSync(db));
  const rows = index.exec('SELECT path, language, size, mtime, hash, lines FROM files ORDER BY id')[0]?.values ?? [];
  index.close();

  const service = new TreeSitterService(assets);
  const files: Array<{ facts: FileFacts; result: ParseResult }> = [];
  for (const [path, language, size, mtime, hash, lines] of rows) {
    const text = readFileSync(join(dir, String(path)), 'utf8');
    const result = await service.parse({ path: String(path), language: String(language), text });
    if (result.error) continue;
    files.push({ facts: { path: String(path), language: String(language), size: Number(size), mtimeMs: Number(mtime), hash: String(hash), lines: Number(lines) }, result });
  }
  console.log(`${files.length} files parsed; writing them ${rounds} times`);
  const cpu: number[] = [];
  const persisted: number[] = [];
  const cpuMs = (c0: NodeJS.CpuUsage) => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  for (let round = 1; round <= rounds; round++) {
    const scratch = persist ? mkdtempSync(join(tmpdir(), 'write-path-')) : undefined;
    const storage = scratch ? createFileIndexStorage(join(scratch, 'index.db')) : undefined;
    const target = await IndexDatabase.create(assets, {}, await storage?.createImage(), { bulk: true });
    const writes = new ChangeRecorder(target, false);
    const c0 = process.cpuUsage();
    for (let i = 0; i < files.length; i += BATCH) {
      target.transaction(() => {
        for (const f of files.slice(i, i + BATCH)) writes.apply({ op: 'write', facts: f.facts, result: f.result, now: 1 });
      });
    }
    cpu.push(cpuMs(c0));
    let line = `round ${round}: ${cpu.at(-1)!.toFixed(0)} CPU-ms`;
    if (storage) {
      const p0 = process.cpuUsage();
      const { imageBytes } = await persistRun(storage, target, { full: true, changed: true, applied: 0, limit: 0 });
      persisted.push(cpuMs(p0));
      line += `, persisted in ${persisted.at(-1)!.toFixed(0)} CPU-ms (image ${imageBytes} bytes)`;
    }
    console.log(line);
    target.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  const report = (what: string, all: number[]) => {
    const later = all.slice(1).sort((a, b) => a - b);
    if (later.length) console.log(`${what}, rounds 2-${rounds}: min ${later[0]!.toFixed(0)}, median ${later[Math.floor((later.length - 1) / 2)]!.toFixed(0)} CPU-ms`);
  };
  report('writes', cpu);
  report('persist', persisted);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
