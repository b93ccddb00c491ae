// node scripts/compare-indexes.mjs A.db B.db [--rows]
// Whether two index files hold the same data: every table, the full-text index's shadow tables (segments, segment
// directory, document sizes, statistics) and sqlite_sequence included, row by row in rowid (or key) order. Values
// that record when a run happened or how long it took, not what it indexed, are left out: files.indexed_at,
// bundle_cache.created_at, the meta keys in VOLATILE_META and the last report's durationMs and batches (how the run was cut up, not what it indexed). For speed work that must change no byte of what the index answers from: build
// an index of the same tree before and after (`index --full --db FILE`), then compare. Exit code 1 on a difference;
// --rows prints the first differing rows of each table.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

// generation: a random id of each written image, which journals are matched against.
const VOLATILE_META = new Set(['created_at', 'updated_at', 'generation']);
const VOLATILE_COLUMNS = { files: ['indexed_at'], bundle_cache: ['created_at'] };

const args = process.argv.slice(2);
const [a, b] = args.filter((x) => !x.startsWith('--'));
if (!a || !b) {
  console.error('usage: node scripts/compare-indexes.mjs A.db B.db [--rows]');
  process.exit(2);
}
const showRows = args.includes('--rows');
const require = createRequire(import.meta.url);
const initSqlJs = require('sql.js');
const SQL = await initSqlJs({ locateFile: () => resolve('node_modules/sql.js/dist/sql-wasm.wasm') });

const show = (v) => (v instanceof Uint8Array ? `x'${Buffer.from(v).toString('hex')}'` : JSON.stringify(v));

/** Every table's rows as text lines, keyed by table name. */
function dump(file) {
  const db = new SQL.Database(readFileSync(file));
  const tables = db.exec("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? [];
  const out = new Map();
  for (const [name, sql] of tables) {
    // Virtual tables are read through their shadow tables, which hold what the virtual table stores.
    if (/^CREATE VIRTUAL TABLE/i.test(String(sql))) continue;
    const withoutRowid = /WITHOUT ROWID\s*$/i.test(String(sql));
    const order = withoutRowid ? '' : ' ORDER BY rowid';
    const result = db.exec(`SELECT ${withoutRowid ? '' : 'rowid AS _rowid, '}* FROM "${name}"${order}`)[0];
    const columns = result?.columns ?? [];
    const skip = new Set(VOLATILE_COLUMNS[name] ?? []);
    const lines = [];
    for (const row of result?.values ?? []) {
      if (name === 'meta' && VOLATILE_META.has(String(row[columns.indexOf('key')]))) continue;
      if (name === 'meta' && row[columns.indexOf('key')] === 'last_report') {
        const value = columns.indexOf('value');
        row[value] = JSON.stringify({ ...JSON.parse(String(row[value])), durationMs: undefined, batches: undefined });
      }
      lines.push(row.filter((_, i) => !skip.has(columns[i])).map(show).join('|'));
    }
    out.set(String(name), lines);
  }
  db.close();
  return out;
}

const left = dump(a);
const right = dump(b);
let differ = 0;
for (const name of [...new Set([...left.keys(), ...right.keys()])].sort()) {
  const l = left.get(name);
  const r = right.get(name);
  const digest = (rows) => (rows ? createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 12) : 'missing');
  const same = l && r && digest(l) === digest(r);
  console.log(`${same ? 'same' : 'DIFF'} ${name}: ${l?.length ?? '-'} / ${r?.length ?? '-'} rows ${digest(l)} ${digest(r)}`);
  if (same) continue;
  differ++;
  if (showRows && l && r) {
    let shown = 0;
    for (let i = 0; i < Math.max(l.length, r.length) && shown < 5; i++) {
      if (l[i] === r[i]) continue;
      console.log(`  row ${i}:\n    < ${(l[i] ?? '(none)').slice(0, 300)}\n    > ${(r[i] ?? '(none)').slice(0, 300)}`);
      shown++;
    }
  }
}
console.log(differ ? `${differ} table(s) differ` : 'indexes hold the same data');
process.exit(differ ? 1 : 0);
