/**
 * A run writes file after file without asking SQLite for ids it already knows (store/file-writes.ts): the tables'
 * last row ids come from the mark the previous write left, a new index's names from the interned map, new rows'
 * ids from RETURNING, a copy's ranges from the rows each insert changed. The rows are the ones the querying path
 * gives: the same writes, with every shortcut turned off before each, leave the same tables, through copies, a
 * rewrite, a removal and a write rolled back. Needs a build first: `node esbuild.mjs cli worker tests` (dist/ holds
 * the grammars and the queries).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageForPath } from '../../src/core/parse/languages';
import { TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import type { ParseResult } from '../../src/core/parse/types';
import { IndexDatabase } from '../../src/core/store/database';
import { copyFile, removeFile, writeFile, type FileFacts, type FileRows } from '../../src/core/store/file-writes';
import { matchAny } from '../../src/core/store/postings';
import { createNodeAssetLocator } from '../../src/node/assets';
import { ASSET_ROOT } from '../helpers/workspace';

const assets = createNodeAssetLocator(ASSET_ROOT);
const service = new TreeSitterService(assets);

const SOURCES: Record<string, string> = {
  'src/store.ts': `// oracle:domain=store

export class Store {
  private items: string[] = [];
  // oracle:owner=data
  add(item: string): void { this.items.push(normalise(item)); }
  count(): number { return this.items.length; }
}
export function normalise(s: string): string { return s.trim().toLowerCase(); }
`,
  'src/user.ts': 'import { Store, normalise } from "./store";\nexport function fill(s: Store): number { s.add(normalise("a")); return s.count(); }\n',
  'lib/util.py': 'import os\n\nclass Paths:\n    def join(self, a, b):\n        return os.path.join(a, b)\n\ndef home():\n    return Paths().join("~", "x")\n',
};

async function parsed(path: string): Promise<{ facts: FileFacts; result: ParseResult }> {
  const text = SOURCES[path]!;
  const result = await service.parse({ path, language: languageForPath(path)!.id, text });
  assert.equal(result.error, undefined);
  return { facts: { path, language: result.language, size: text.length, mtimeMs: 1, hash: path, lines: text.split('\n').length }, result };
}

/** Every table's rows, in one order, and what the full-text postings hold for three words (their segments may differ). */
function tables(db: IndexDatabase): Record<string, unknown[][]> {
  const out: Record<string, unknown[][]> = {};
  for (const t of ['files', 'file_texts', 'ref_names', 'symbol_rows', 'ref_rows', 'ref_counts', 'imports', 'annotations', 'chunk_spans', 'sqlite_sequence']) {
    out[t] = db.rows(`SELECT * FROM ${t} ORDER BY 1, 2`);
  }
  const m = matchAny(db, [{ text: 'store' }, { text: 'paths' }, { text: 'fill' }]);
  out.search = [[...m.ids.subarray(0, m.length)], [...m.counts.subarray(0, 9 * m.length)]];
  for (const t of ['chunk_sizes', 'dead_chunks']) out[t] = db.rows(`SELECT * FROM ${t} ORDER BY 1`);
  return out;
}

/** Counts the statements a database is asked to run, by the start of their SQL. */
function countStatements(db: IndexDatabase): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (sql: string) => {
    const key = sql.replace(/\s+/g, ' ').slice(0, 40);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const getPrepared = db.getPrepared.bind(db);
  const runPrepared = db.runPrepared.bind(db);
  db.getPrepared = (sql, params) => { count(sql); return getPrepared(sql, params); };
  db.runPrepared = (sql, params) => { count(sql); runPrepared(sql, params); };
  return counts;
}

const matching = (counts: Map<string, number>, start: string) => [...counts].filter(([k]) => k.startsWith(start)).reduce((n, [, v]) => n + v, 0);

/**
 * The same writes into two new indexes: one as a run makes them, one with the shortcuts off before each write (the
 * mark dropped and the name map not trusted, so ids come from querying the tables).
 */
async function writeBoth(script: (db: IndexDatabase, write: (path: string) => FileRows, copy: (path: string, from: FileRows) => FileRows) => void) {
  const files = new Map(await Promise.all(Object.keys(SOURCES).map(async (p) => [p, await parsed(p)] as const)));
  const dbs: IndexDatabase[] = [];
  for (const querying of [false, true]) {
    // Not a bulk load: a bulk load's postings are held across its transactions, and a rollback there ends the run
    // (the next flush refuses: postings-writer.ts), while the rollback below is one a run writing commits recovers from.
    const db = await IndexDatabase.create(assets, { schema_version: 'test' });
    const plain = () => {
      if (!querying) return;
      db.rowIdMark = undefined;
      db.refNamesKnown = false;
    };
    const write = (path: string) => {
      plain();
      const f = files.get(path)!;
      return writeFile(db, f.facts, structuredClone(f.result), 1);
    };
    const copy = (path: string, from: FileRows) => {
      plain();
      const f = files.get(path)!;
      return copyFile(db, { ...f.facts, path: `copy/${path}` }, from, 1);
    };
    script(db, write, copy);
    dbs.push(db);
  }
  return dbs as [IndexDatabase, IndexDatabase];
}

describe('file writes', () => {
  it('give the rows of the querying path through copies, a rewrite, a removal and a rollback', async () => {
    const [run, querying] = await writeBoth((db, write, copy) => {
      let store: FileRows | undefined;
      db.transaction(() => {
        store = write('src/store.ts');
        write('src/user.ts');
      });
      // A write rolled back after it completed: its ids (and names) are taken back, the next write reuses them.
      assert.throws(() => db.transaction(() => {
        write('lib/util.py');
        throw new Error('cancelled');
      }), /cancelled/);
      db.transaction(() => {
        copy('src/store.ts', store!);
        write('lib/util.py');
        // Rewritten: its old rows go, the new ones take ids after the last.
        write('src/user.ts');
        removeFile(db, 'copy/src/store.ts');
        write('src/store.ts');
      });
    });
    const got = tables(run);
    assert.deepEqual(got, tables(querying));
    assert.ok(got.symbol_rows!.length > 5 && got.ref_counts!.length > 5 && got.annotations!.length > 0 && got.search!.length > 0);
    run.close();
    querying.close();
  });

  it('ask for the last row ids once per run and look up no name in a new index', async () => {
    const files = await Promise.all(Object.keys(SOURCES).map(parsed));
    const db = await IndexDatabase.create(assets, { schema_version: 'test' }, undefined, { bulk: true });
    const counts = countStatements(db);
    let first: FileRows | undefined;
    db.transaction(() => {
      for (const f of files) first ??= writeFile(db, f.facts, structuredClone(f.result), 1);
      copyFile(db, { ...files[0]!.facts, path: 'copy.ts' }, first!, 1);
    });
    // Before: one query of the tables' last ids per write and two per copy, a name lookup and a last_insert_rowid()
    // per new name and per new file.
    assert.equal(matching(counts, 'SELECT (SELECT coalesce(max(rowid)'), 1);
    assert.equal(matching(counts, 'SELECT id FROM ref_names'), 0);
    assert.equal(matching(counts, 'SELECT last_insert_rowid()'), 0);
    assert.ok(Number(db.get('SELECT count(*) AS n FROM ref_names')!.n) > 5);
    db.close();
  });
});
