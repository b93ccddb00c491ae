/**
 * The sql.js database behind the index: created from the persisted bytes or from scratch, with the bm25()
 * function registered. sql.js keeps the whole database in WASM memory; persisting exports the bytes.
 */
import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { EngineError } from '../errors';
import type { AssetLocator } from '../ports';
import { bm25 } from './bm25';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema';

let sqlJs: Promise<SqlJsStatic> | undefined;

function loadSqlJs(assets: AssetLocator): Promise<SqlJsStatic> {
  sqlJs ??= assets.readBytes('sql-wasm.wasm').then((bytes) =>
    initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }),
  );
  return sqlJs;
}

export type Row = Record<string, SqlValue>;

const MAGIC = 'SQLite format 3\0';

/**
 * Cheap structural checks on a database image: the magic string, and the page count recorded in the header times
 * the page size equals the byte length (a truncated or padded file fails here before SQLite reads a page).
 */
function checkHeader(bytes: Uint8Array): void {
  if (bytes.length < 100) throw new Error(`${bytes.length} bytes is too short for a database`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC.charCodeAt(i)) throw new Error('not an SQLite database (bad header)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = view.getUint32(28);
  if (pageSize < 512 || pages === 0 || pages * pageSize !== bytes.length) {
    throw new Error(`database size ${bytes.length} does not match its header (${pages} pages of ${pageSize} bytes)`);
  }
}

export class IndexDatabase {
  /** Prepared statements reused by hot write paths; sql.js frees them all on export, so the cache is cleared then. */
  private readonly cached = new Map<string, Statement>();
  private readonly keptWrites: Array<{ sql: string; params: SqlValue[] }> = [];

  private constructor(private db: Database, private readonly SQL: SqlJsStatic) {
    // The database file lives in Emscripten's in-memory FS and durability comes from the atomic export, so a
    // rollback journal on that FS only costs copies; keep it in memory and skip syncs.
    // Exclusive locking keeps the page cache across transactions instead of re-reading pages from that FS.
    // The cache lives in WASM memory, which never shrinks; pages come from memory anyway, so 8 MB answers and
    // indexes a 10k-file workspace as fast as 32 MB did, with ~22 MB less resident.
    this.configure();
  }

  private configure(): void {
    this.db.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-8192;');
    this.registerFunctions();
  }

  static async create(assets: AssetLocator, meta: Record<string, string>): Promise<IndexDatabase> {
    const SQL = await loadSqlJs(assets);
    const db = new SQL.Database();
    db.exec(SCHEMA_SQL);
    const store = new IndexDatabase(db, SQL);
    store.setMeta({ ...meta, schema_version: String(SCHEMA_VERSION) });
    return store;
  }

  /** Opens persisted bytes; throws index_corrupt when they are not a database of this schema. */
  static async open(assets: AssetLocator, bytes: Uint8Array): Promise<IndexDatabase> {
    const SQL = await loadSqlJs(assets);
    let db: Database | undefined;
    try {
      checkHeader(bytes);
      db = new SQL.Database(bytes);
      // A full PRAGMA quick_check costs seconds on a large index; the file is only ever replaced by an atomic
      // rename, so damage comes from outside and shows in the header (checked above) or in these reads.
      db.exec("SELECT count(*) FROM meta; SELECT max(id) FROM files; SELECT max(id) FROM symbols; SELECT max(id) FROM chunks; SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'x'");
    } catch (e) {
      db?.close();
      throw new EngineError('index_corrupt', `index is unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
    return new IndexDatabase(db, SQL);
  }

  /**
   * Sizes the in-memory database file for a bulk load of about `bytes`, before its first rows. Emscripten's MEMFS
   * grows a file by 12.5 % at a time, copying all of it each time: a 400 MB index was copied ~50 times while it
   * was built (3 s of the indexing thread, and every old copy garbage at once). Reopening the database from an
   * image padded to the expected size lets SQLite write into room that is already there; the header's page count
   * keeps the padding out of the database, and export() writes only the pages in use.
   */
  reserve(bytes: number): void {
    const image = this.export();
    if (bytes <= image.length * 2) return;
    const room = new Uint8Array(bytes);
    room.set(image);
    // MEMFS takes a new file's bytes with slice(); handing over the array itself keeps the untouched padding
    // uncommitted (no page of it counts in RSS until SQLite writes there). Were sql.js to copy instead, this is
    // still correct, only slower.
    Object.defineProperty(room, 'slice', { value: () => room });
    this.freeCached();
    this.db.close();
    this.db = new this.SQL.Database(room);
    this.configure();
  }

  private registerFunctions(): void {
    // sql.js takes the SQL arity from the JS function's length, so the weights are spelled out.
    this.db.create_function('bm25', (info: unknown, w0: unknown, w1: unknown, w2: unknown) =>
      info instanceof Uint8Array ? bm25(info, [Number(w0), Number(w1), Number(w2)]) : 0,
    );
  }

  meta(): Record<string, string> {
    return Object.fromEntries(this.all('SELECT key, value FROM meta').map((r) => [String(r.key), String(r.value)]));
  }

  setMeta(values: Record<string, string>): void {
    for (const [k, v] of Object.entries(values)) this.run('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)', [k, v]);
  }

  run(sql: string, params: SqlValue[] = []): void {
    this.db.run(sql, params);
  }

  /**
   * Like run(), for writes made outside index runs that should outlive this process (the bundle cache): they are
   * kept until the next commit takes them (takeKept) into its journal record. A whole-image write carries them anyway.
   */
  runKept(sql: string, params: SqlValue[] = []): void {
    this.db.run(sql, params);
    this.keptWrites.push({ sql, params });
  }

  takeKept(): Array<{ sql: string; params: SqlValue[] }> {
    return this.keptWrites.splice(0);
  }

  /** Like run(), with the statement prepared once and kept: for statements executed thousands of times. */
  runPrepared(sql: string, params: SqlValue[]): void {
    let stmt = this.cached.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cached.set(sql, stmt);
    }
    stmt.run(params);
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      const rows: Row[] = [];
      while (stmt.step()) rows.push(stmt.getAsObject());
      return rows;
    } finally {
      stmt.free();
    }
  }

  /**
   * Like all(), with each row as an array of column values in SELECT order. For hot reads of thousands of rows:
   * building an object per row (column names looked up every time) costs as much as the query itself.
   */
  rows(sql: string, params: SqlValue[] = []): SqlValue[][] {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      const rows: SqlValue[][] = [];
      while (stmt.step()) rows.push(stmt.get());
      return rows;
    } finally {
      stmt.free();
    }
  }

  /** Calls `fn` with each row as an array, without keeping the rows: each dies young, whatever their number. */
  each(sql: string, params: SqlValue[], fn: (row: SqlValue[]) => void): void {
    const stmt = this.db.prepare(sql);
    try {
      stmt.bind(params);
      while (stmt.step()) fn(stmt.get());
    } finally {
      stmt.free();
    }
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return this.all(sql, params)[0];
  }

  /** First row of a statement prepared once and kept (see runPrepared). */
  getPrepared(sql: string, params: SqlValue[]): Row | undefined {
    let stmt = this.cached.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cached.set(sql, stmt);
    }
    try {
      stmt.bind(params);
      return stmt.step() ? stmt.getAsObject() : undefined;
    } finally {
      stmt.reset();
    }
  }

  /** Runs `fn` for each parameter row with one prepared statement. */
  runMany(sql: string, rows: SqlValue[][]): void {
    if (!rows.length) return;
    const stmt = this.db.prepare(sql);
    try {
      for (const r of rows) stmt.run(r);
    } finally {
      stmt.free();
    }
  }

  lastInsertId(): number {
    return Number(this.getPrepared('SELECT last_insert_rowid() AS id', [])!.id);
  }

  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const out = fn();
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Rewrites the database without its free pages (and with its b-trees packed). Call outside a transaction. */
  vacuum(): void {
    this.freeCached();
    this.db.exec('VACUUM');
  }

  /** Serialises the database. sql.js reopens the database on export, dropping functions and pragmas: set them again. */
  export(): Uint8Array {
    this.freeCached();
    const bytes = this.db.export();
    this.configure();
    return bytes;
  }

  private freeCached(): void {
    for (const stmt of this.cached.values()) stmt.free();
    this.cached.clear();
  }

  close(): void {
    this.freeCached();
    this.db.close();
  }
}
