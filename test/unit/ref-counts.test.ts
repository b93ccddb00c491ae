/**
 * ref_counts, the per-file reference counts the repo map reads instead of every reference row, stays equal to the
 * counts of ref_rows through a bulk load with copies, an incremental run (an edit, a removal, a new copy) and a
 * journal replay; and the map's graph built from it is the one the reference rows give.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { runIndex } from '../../src/core/index/indexer';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import type { EngineDeps } from '../../src/core/ports';
import { loadMapData } from '../../src/core/repomap/map-data';
import { IndexDatabase } from '../../src/core/store/database';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { ASSET_ROOT, captureLogger, makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

const STORE = `export class Store {
  private items: string[] = [];
  add(item: string): void { this.items.push(normalise(item)); this.items.push(normalise(item + item)); }
  count(): number { return this.items.length; }
}
export function normalise(s: string): string { return s.trim().toLowerCase(); }
`;
const USER = 'import { Store, normalise } from "./store";\nexport function fill(s: Store): number { s.add(normalise("a")); s.add("b"); return s.count(); }\n';

const assets = createNodeAssetLocator(ASSET_ROOT);

async function indexInto(root: string, db: IndexDatabase, full: boolean) {
  let clock = 1_000;
  const parser = createInProcessParserHost(assets);
  const deps: EngineDeps = {
    root, fs: nodeFileSystem, logger: captureLogger(), clock: { now: () => clock++ }, assets, parser,
    storage: undefined as unknown as EngineDeps['storage'],
  };
  try {
    return await runIndex(deps, { ...DEFAULT_CONFIG, batchSize: 2 }, db, full);
  } finally {
    await parser.dispose();
  }
}

/** ref_counts holds, for every file, exactly the counts of its reference rows. */
function assertCountsMatchRows(db: IndexDatabase): void {
  const kept = db.all('SELECT file_id, name_id, n FROM ref_counts ORDER BY file_id, name_id');
  const counted = db.all('SELECT file_id, name_id, count(*) AS n FROM ref_rows GROUP BY file_id, name_id ORDER BY file_id, name_id');
  assert.ok(counted.length > 0);
  assert.deepEqual(kept, counted);
  assert.ok(kept.some((r) => Number(r.n) > 1), 'some name is referenced more than once in a file');
}

/** The map graph's reference counts as (file path, identifier, count), from the reference rows themselves. */
function countsFromRows(db: IndexDatabase): string[] {
  return db.all(`SELECT f.path, n.name, count(*) AS n FROM ref_rows r JOIN ref_names n ON n.id = r.name_id JOIN files f ON f.id = r.file_id
    WHERE n.name IN (SELECT name FROM symbols) GROUP BY f.path, n.name`).map((r) => `${String(r.path)} ${String(r.name)} ${String(r.n)}`).sort();
}

describe('ref_counts', () => {
  it('is kept equal to the counts of ref_rows by bulk loads, copies, edits and removals', async () => {
    const root = makeWorkspace({ 'a/store.ts': STORE, 'b/store.ts': STORE, 'a/user.ts': USER, 'b/user.ts': USER });
    roots.push(root);
    const db = await IndexDatabase.create(assets, {}, undefined, { bulk: true });
    const bulk = await indexInto(root, db, true);
    assert.equal(bulk.reused, 2);
    assertCountsMatchRows(db);

    writeFileSync(join(root, 'b/store.ts'), STORE.replace('count(): number', 'size(): number { return this.count(); }\n  count(): number'));
    rmSync(join(root, 'a/user.ts'));
    mkdirSync(join(root, 'c'));
    cpSync(join(root, 'b/user.ts'), join(root, 'c/user.ts'));
    const run = await indexInto(root, db, false);
    assert.equal(run.reused, 1);
    assertCountsMatchRows(db);
    assert.equal(db.all("SELECT 1 FROM ref_counts c JOIN files f ON f.id = c.file_id WHERE f.path = 'a/user.ts'").length, 0);
    db.close();
  });

  it('gives the map the graph the reference rows give', async () => {
    const root = makeWorkspace({ 'src/store.ts': STORE, 'src/user.ts': USER, 'lib/user.ts': USER.replace('"b"', 'normalise("b")') });
    roots.push(root);
    const db = await IndexDatabase.create(assets, {});
    await indexInto(root, db, true);
    const data = loadMapData(db, 'v');
    const g = data.idents;
    const fromGraph: string[] = [];
    for (let i = 0; i < g.names.length; i++) {
      for (let k = g.refStart[i]!; k < g.refStart[i + 1]!; k++) fromGraph.push(`${data.files[g.refFiles[k]!]!} ${g.names[i]!} ${g.refCounts[k]!}`);
    }
    assert.deepEqual(fromGraph.sort(), countsFromRows(db));
    // Two calls of normalise in lib/user.ts, one in src/user.ts: counts, not a pair per file.
    assert.ok(fromGraph.includes('lib/user.ts normalise 2') && fromGraph.includes('src/user.ts normalise 1'), fromGraph.join('\n'));
    db.close();
  });

  it('is replayed from the journal with the commit that wrote it', async () => {
    const root = makeWorkspace({ 'src/store.ts': STORE });
    roots.push(root);
    const engine = testEngine(root);
    await engine.index();
    writeFileSync(join(root, 'src/user.ts'), USER);
    await engine.index();
    const live = await engine.repoMap({ maxTokens: 400 });
    assert.ok(live.files.some((f) => f.path === 'src/store.ts'));
    await engine.dispose();
    const reopened = testEngine(root);
    const replayed = await reopened.repoMap({ maxTokens: 400 });
    assert.equal(replayed.text, live.text);
    assert.deepEqual(replayed.files, live.files);
    await reopened.dispose();
  });
});
