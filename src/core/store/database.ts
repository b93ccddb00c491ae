/**
 * The sql.js database behind the index: opened in place on the persisted image or created empty. The file under it is a PagedFile (paged-file.ts): pages come from disk, changes stay in memory
 * until a whole image is written (writeImage, packInto) or go to the journal (journal.ts).
 */
import initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { EngineError } from '../errors';
import type { AssetLocator, ImageDraft, ImageFile } from '../ports';
import { memoryImage, PagedFile } from './paged-file';
import { packPostingsInto, packSegments, PendingPostings, POSTINGS_TABLES } from './postings-writer';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema';

let sqlJs: Promise<SqlJsStatic> | undefined;

function loadSqlJs(assets: AssetLocator): Promise<SqlJsStatic> {
  sqlJs ??= assets.readBytes('sql-wasm.wasm').then((bytes) =>
    initSqlJs({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer }),
  );
  return sqlJs;
}

export type Row = Record<string, SqlValue>;

/** The bytes of a database made by `sql` in sql.js's in-memory file system (a few pages): what new files start from. */
function seedImage(SQL: SqlJsStatic, sql: string): Uint8Array {
  const db = new SQL.Database();
  try {
    db.exec(sql);
    return db.export();
  } finally {
    db.close();
  }
}

const MAGIC = 'SQLite format 3\0';

/**
 * Cheap structural checks on a database image: the magic string, and the page count recorded in the header times
 * the page size equals the byte length (a truncated or padded file fails here before SQLite reads a page).
 */
function checkHeader(header: Uint8Array, size: number): void {
  if (size < 100 || header.length < 100) throw new Error(`${size} bytes is too short for a database`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (header[i] !== MAGIC.charCodeAt(i)) throw new Error('not an SQLite database (bad header)');
  }
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  const pages = view.getUint32(28);
  if (pageSize < 512 || pages === 0 || pages * pageSize !== size) {
    throw new Error(`database size ${size} does not match its header (${pages} pages of ${pageSize} bytes)`);
  }
}

/** CREATE statements from sqlite_schema, aimed at the attached schema `packed`. */
const CREATE_NAME = /^(CREATE\s+(?:UNIQUE\s+)?(?:VIRTUAL\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?)/i;

export class IndexDatabase {
  /** Prepared statements reused by hot write paths; sql.js frees them all on export, so the cache is cleared then. */
  private readonly cached = new Map<string, Statement>();
  private readonly keptWrites: Array<{ sql: string; params: SqlValue[] }> = [];
  /**
   * Interned reference names already looked up or written (file-writes.ts), so a name repeated across thousands of
   * files costs one query. Emptied on a rollback, which may have taken back ids handed out here.
   */
  readonly refNameIds = new Map<string, number>();
  /** Full-text postings of this transaction's chunks, written when it commits (postings-writer.ts). */
  readonly postings = new PendingPostings();
  /**
   * Whether refNameIds holds every row of ref_names: true for an index created here (every name it has was written
   * through the map), so a name the map lacks is new without looking it up. False once a rollback empties the map.
   */
  refNamesKnown = false;
  /**
   * The last row id of each table one file's rows go to, as a file write left them, with the connection's
   * total_changes() then (file-writes.ts): while no row changed since, the next file's ids follow without a query.
   * Dropped with the connection (export, rebase) and on a rollback.
   */
  rowIdMark: { changes: number; ids: Record<string, number> } | undefined;
  /**
   * Secondary indexes left out while a new index is bulk-loaded (create's `bulk`), made once its rows are in: by
   * packInto in the packed copy, or here before any other image of it is written.
   */
  private deferredIndexes: string[] = [];

  /** `image`: the file under `file`, owned (closed with the database). */
  private constructor(
    private db: Database,
    private readonly SQL: SqlJsStatic,
    private file: PagedFile,
    private image: ImageFile | undefined,
  ) {
    this.configure();
  }

  private configure(): void {
    // Durability comes from the image written whole and renamed, or the journal (journal.ts): SQLite's own rollback
    // journal only has to undo a failed transaction, so it stays in memory and nothing is synced.
    // Exclusive locking keeps the page cache across transactions instead of re-reading pages from the file.
    // The cache lives in WASM memory, which never shrinks; 8 MB answers and indexes a 10k-file workspace as fast as
    // 32 MB did, with ~22 MB less resident.
    this.db.exec('PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-8192;');
  }

  /**
   * A new, empty index. With `draft`, the database is written straight into that file as it is built (nothing of it
   * stays in memory but SQLite's page cache); without, it lives in memory.
   */
  static async create(assets: AssetLocator, meta: Record<string, string>, draft?: ImageDraft, options: { bulk?: boolean } = {}): Promise<IndexDatabase> {
    const SQL = await loadSqlJs(assets);
    const seed = seedImage(SQL, SCHEMA_SQL);
    let file: PagedFile;
    if (draft) {
      draft.write(seed, 0);
      file = new PagedFile(draft, draft);
    } else {
      file = new PagedFile(memoryImage(seed));
    }
    const store = new IndexDatabase(new SQL.Database(file.installer() as unknown as Uint8Array), SQL, file, draft);
    store.setMeta({ ...meta, schema_version: String(SCHEMA_VERSION) });
    store.refNamesKnown = true;
    if (options.bulk) {
      store.deferIndexes();
      store.postings.deferred = true;
    }
    return store;
  }

  /**
   * Opens a persisted image in place (pages are read from it as SQLite needs them; changes stay in memory until
   * written out). Takes ownership of `image`. Throws index_corrupt when it is not a database of this schema.
   */
  static async open(assets: AssetLocator, image: ImageFile): Promise<IndexDatabase> {
    const SQL = await loadSqlJs(assets);
    let db: Database | undefined;
    try {
      const header = new Uint8Array(100);
      header.fill(0, image.read(header, 0));
      checkHeader(header, image.size);
      const file = new PagedFile(image);
      db = new SQL.Database(file.installer() as unknown as Uint8Array);
      // A full PRAGMA quick_check costs seconds on a large index; the file is only ever replaced by an atomic
      // rename, so damage comes from outside and shows in the header (checked above) or in these reads.
      // An index of another schema is not damaged: its tables differ, and the version check rebuilds it (expected-meta.ts).
      const version = db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.values[0]?.[0];
      if (version === String(SCHEMA_VERSION)) {
        db.exec('SELECT max(id) FROM files; SELECT max(id) FROM symbol_rows; SELECT max(id) FROM chunk_spans; SELECT max(seg) FROM postings_segs; SELECT term FROM postings LIMIT 1');
      }
      return new IndexDatabase(db, SQL, file, image);
    } catch (e) {
      db?.close();
      image.close();
      throw new EngineError('index_corrupt', `index is unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /**
   * Drops the secondary indexes (not the UNIQUE ones, which writes look rows up by) until the rows are in: a sorted
   * build at the end costs less than keeping each b-tree up to date through every insert in random key order.
   */
  private deferIndexes(): void {
    const indexes = this.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY rowid");
    for (const [name] of indexes) this.db.exec(`DROP INDEX "${String(name)}"`);
    this.deferredIndexes = indexes.map((r) => String(r[1]));
  }

  /** Makes the deferred indexes here (before an image other than a packed copy is written). */
  private buildDeferredIndexes(): void {
    this.postings.deferred = false;
    for (const sql of this.deferredIndexes.splice(0)) this.db.exec(sql);
  }

  /** Bytes of changes held in memory over the image (what the next whole-image write drops). */
  overlayBytes(): number {
    return this.file.overlayBytes();
  }

  /**
   * Writes the database as it stands (outside a transaction) into `draft`, page by page: nothing is copied whole.
   */
  writeImage(draft: ImageDraft): void {
    this.postings.flush(this);
    this.freeCached();
    this.buildDeferredIndexes();
    if (this.file.detached) {
      draft.write(this.export(), 0);
      return;
    }
    const size = this.pageCount() * this.pageSize();
    const block = new Uint8Array(1 << 20);
    for (let at = 0; at < size; at += block.length) {
      const part = block.subarray(0, Math.min(block.length, size - at));
      this.file.read(part, at);
      draft.write(part, at);
    }
  }

  /**
   * Writes a packed copy of the database into `draft`: what VACUUM INTO does (every table copied in rowid order,
   * indexes built after their rows, no free pages), done by hand because VACUUM INTO can only create its file in
   * sql.js's in-memory file system, and VACUUM in place would copy the whole file there twice. The postings'
   * segments are merged into one as they are copied (packPostingsInto); this database keeps them until it is rebased
   * on the copy.
   */
  packInto(draft: ImageDraft): void {
    this.postings.flush(this);
    this.freeCached();
    if (this.file.detached) {
      this.transaction(() => packSegments(this));
      this.buildDeferredIndexes();
      draft.write(this.export(), 0);
      return;
    }
    const SQL = this.SQL;
    draft.write(seedImage(SQL, `PRAGMA page_size=${this.pageSize()}; CREATE TABLE t(x); DROP TABLE t; VACUUM;`), 0);
    const target = new PagedFile(draft, draft);
    // This connection only gives the file a name in MEMFS; the copy runs on ours, with it attached.
    const holder = new SQL.Database(target.installer() as unknown as Uint8Array);
    const filename = (holder as unknown as { filename: string }).filename;
    try {
      this.db.exec(`ATTACH '/${filename}' AS packed; PRAGMA packed.journal_mode=OFF; PRAGMA packed.synchronous=OFF;`);
      try {
        const schema = this.rows("SELECT type, name, sql FROM main.sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")
          .map(([type, name, sql]) => ({ type: String(type), name: String(name), sql: String(sql) }));
        const create = (sql: string) => this.db.exec(sql.replace(CREATE_NAME, '$1packed.'));
        const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
        this.db.exec('BEGIN');
        // Virtual tables first: they make their own shadow tables, which are then filled like any other table.
        for (const o of schema) if (o.type === 'table' && /^CREATE\s+VIRTUAL/i.test(o.sql)) create(o.sql);
        const made = new Set(this.rows("SELECT name FROM packed.sqlite_schema WHERE type = 'table'").map((r) => String(r[0])));
        // sqlite_sequence (and any other internal table) comes with the tables that need it.
        for (const o of schema) if (o.type === 'table' && !made.has(o.name) && !o.name.startsWith('sqlite_') && !/^CREATE\s+VIRTUAL/i.test(o.sql)) create(o.sql);
        const present = new Set(this.rows("SELECT name FROM packed.sqlite_schema WHERE type = 'table'").map((r) => String(r[0])));
        const tables = schema.filter((o) => o.type === 'table' && present.has(o.name) && !/^CREATE\s+VIRTUAL/i.test(o.sql)).map((o) => o.name);
        for (const name of tables) {
          if (POSTINGS_TABLES.includes(name)) continue;
          this.db.exec(`DELETE FROM packed.${quoted(name)}; INSERT INTO packed.${quoted(name)} SELECT * FROM main.${quoted(name)};`);
        }
        packPostingsInto(this, 'packed');
        // Indexes after their rows, a deferred one (create's `bulk`) only here, in the copy.
        for (const sql of this.deferredIndexes) create(sql);
        for (const type of ['index', 'view', 'trigger']) for (const o of schema) if (o.type === type) create(o.sql);
        this.db.exec('COMMIT');
      } catch (e) {
        try { this.db.exec('ROLLBACK'); } catch { /* no transaction left */ }
        throw e;
      } finally {
        this.db.exec('DETACH packed');
      }
    } finally {
      holder.close();
    }
    if (target.detached) throw new Error('packed image was copied into memory; not written');
  }

  /**
   * Continues on `image` (a new image of this same database, just written), dropping the changes held in memory and
   * closing the old image.
   */
  rebase(image: ImageFile): void {
    this.freeCached();
    // The new image was written with every index (packInto or writeImage made the deferred ones).
    this.deferredIndexes = [];
    this.postings.deferred = false;
    this.rowIdMark = undefined;
    this.db.close();
    this.image?.close();
    this.image = image;
    this.file = new PagedFile(image);
    this.db = new this.SQL.Database(this.file.installer() as unknown as Uint8Array);
    this.configure();
  }

  private pageCount(): number {
    return Number(this.get('PRAGMA page_count')!.page_count);
  }

  private pageSize(): number {
    return Number(this.get('PRAGMA page_size')!.page_size);
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
    this.prepared(sql).run(params);
  }

  private prepared(sql: string): Statement {
    let stmt = this.cached.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.cached.set(sql, stmt);
    }
    return stmt;
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

  /**
   * A statement the caller steps (next() gives undefined past the last row) and closes; several may be open at once,
   * as a merge of sorted runs needs (postings-writer.ts).
   */
  cursor(sql: string, params: SqlValue[]): { next(): SqlValue[] | undefined; close(): void } {
    const stmt = this.db.prepare(sql);
    stmt.bind(params);
    return { next: () => (stmt.step() ? stmt.get() : undefined), close: () => stmt.free() };
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return this.all(sql, params)[0];
  }

  /** First row of a statement prepared once and kept (see runPrepared). */
  getPrepared(sql: string, params: SqlValue[]): Row | undefined {
    const stmt = this.prepared(sql);
    try {
      stmt.bind(params);
      return stmt.step() ? stmt.getAsObject() : undefined;
    } finally {
      stmt.reset();
    }
  }

  /**
   * Runs `fn` for each parameter row with one prepared statement, kept like runPrepared's: preparing it anew for
   * each file's few rows cost more than running it (0.6 s of a 390-file index for imports alone).
   */
  runMany(sql: string, rows: SqlValue[][]): void {
    if (!rows.length) return;
    const stmt = this.prepared(sql);
    for (const r of rows) stmt.run(r);
  }

  /** Rows the last INSERT, UPDATE or DELETE changed (SQLite's changes()). */
  changes(): number {
    return this.db.getRowsModified();
  }

  /** Rows inserted, updated or deleted on this connection since it opened (SQLite's total_changes()). */
  totalChanges(): number {
    return Number(this.getPrepared('SELECT total_changes() AS n', [])!.n);
  }

  transaction<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      const out = fn();
      this.postings.commit(this);
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      // A write that failed under SQLite (a full disk under a build file) can leave no transaction to roll back;
      // the rollback's own error ("cannot rollback - no transaction is active") must not hide the cause.
      try { this.db.exec('ROLLBACK'); } catch { /* the transaction is already gone */ }
      this.refNameIds.clear();
      this.postings.rollback();
      this.refNamesKnown = false;
      this.rowIdMark = undefined;
      throw e;
    }
  }

  /** Serialises the database. sql.js reopens the database on export, dropping pragmas: set them again. */
  export(): Uint8Array {
    this.postings.flush(this);
    this.freeCached();
    this.buildDeferredIndexes();
    this.rowIdMark = undefined;
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
    this.image?.close();
    this.image = undefined;
  }
}
