/** Many rows into one table in few statements (the index's bulk writes: store/file-writes.ts, store/ref-counts.ts). */
import type { SqlValue } from 'sql.js';
import type { IndexDatabase } from './database';

/** Rows per INSERT: one statement per row spent as long crossing into SQLite as inserting the row. */
const ROWS_PER_INSERT = 32;
/** Per target (`table(columns)`), the INSERT of n rows at [n], made once: a statement's SQL is its cache key. */
const insertSql = new Map<string, string[]>();

/** Inserts rows of `width` values each (flat, in order) into `into`, `table(columns)`, ROWS_PER_INSERT a statement. */
export function insertRows(db: IndexDatabase, into: string, width: number, values: SqlValue[]): void {
  let sql = insertSql.get(into);
  if (!sql) insertSql.set(into, sql = []);
  const per = ROWS_PER_INSERT * width;
  for (let at = 0; at < values.length; at += per) {
    const part = at === 0 && values.length <= per ? values : values.slice(at, at + per);
    const rows = part.length / width;
    sql[rows] ??= `INSERT INTO ${into} VALUES ${Array(rows).fill(`(${Array(width).fill('?').join(',')})`).join(',')}`;
    db.runPrepared(sql[rows], part);
  }
}
