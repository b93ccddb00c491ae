/**
 * Symbols are stored as symbol_rows (name as an interned id, kind as a code, no qualified name, no doc comment: both
 * follow from what is kept) and read through the view `symbols`: it gives every symbol as the parser extracted it,
 * doc comments come back from the stored file text, and lookups by name, exact or case-insensitive, use an index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chunkTexts, indexedDoc } from '../../src/core/store/chunk-texts';
import type { IndexDatabase } from '../../src/core/store/database';
import type { ParseResult } from '../../src/core/parse/types';
import { indexedWorkspace } from '../helpers/indexed-workspace';

const FILES: Record<string, string> = {
  'src/store.ts': `/** Keeps items in memory. */
export class Store {
  /**
   * Adds an item,
   * trimmed.
   */
  add(item: string): void { this.items.push(item.trim()); }
  // Counts them.
  count(): number { return this.items.length; }
  private items: string[] = [];
}
export function normalise(s: string): string { return s.toLowerCase(); }
`,
  'app/service.py': `class Service:
    def run(self, job):
        """Runs one job
        and returns its result."""
        return job()

def helper():
    return 1
`,
};

describe('symbol rows and the symbols view', () => {
  let db: IndexDatabase;
  let parsed: ParseResult[];
  let dispose: () => Promise<void>;
  before(async () => {
    const w = await indexedWorkspace(FILES);
    db = w.db;
    dispose = w.dispose;
    parsed = await w.deps.parser.parse(Object.entries(FILES).map(([path, text]) => ({ path, language: path.endsWith('.py') ? 'python' : 'typescript', text })));
  });
  after(async () => dispose());

  it('keeps neither a qualified name nor a doc comment, and kinds and names as integers', () => {
    const columns = new Map(db.all("SELECT name, type FROM pragma_table_info('symbol_rows')").map((r) => [String(r.name), String(r.type)]));
    assert.equal(columns.get('kind'), 'INTEGER');
    assert.equal(columns.get('name_id'), 'INTEGER');
    assert.ok(!columns.has('qualified_name') && !columns.has('doc') && !columns.has('name'), [...columns.keys()].join(','));
  });

  it('gives every symbol as extracted, with its doc comment rebuilt from the file text', () => {
    let docs = 0;
    for (const result of parsed) {
      const fileId = Number(db.get('SELECT id FROM files WHERE path = ?', [result.path])!.id);
      const rows = db.all('SELECT name, qualified_name, kind, container, line_start, line_end, name_line, name_col, name_end_col, signature FROM symbols WHERE file_id = ? ORDER BY id', [fileId]);
      assert.deepEqual(rows, result.symbols.map((s) => ({
        name: s.name, qualified_name: s.qualifiedName, kind: s.kind, container: s.container ?? null, line_start: s.lineStart, line_end: s.lineEnd,
        name_line: s.nameLine, name_col: s.nameColumn, name_end_col: s.nameEndColumn, signature: s.signature,
      })));
      for (const s of result.symbols) {
        assert.equal(indexedDoc(db, fileId, s.lineStart), s.doc, `${result.path} ${s.qualifiedName}`);
        if (s.doc) docs++;
      }
    }
    // The fixture's doc comments: a class's, a method's block comment, a line comment and a Python docstring.
    assert.equal(docs, 4);
    assert.equal(db.get("SELECT qualified_name AS q FROM symbols WHERE name = 'run'")!.q, 'Service.run');
  });

  it('shows a doc comment at the head of its symbol\'s chunk, as when it was indexed', () => {
    const chunk = db.get("SELECT c.id, c.kind FROM chunks c WHERE c.symbol = 'Store.add'")!;
    assert.equal(chunk.kind, 'method');
    const text = chunkTexts(db, [Number(chunk.id)]).get(Number(chunk.id));
    assert.equal(text, 'Adds an item, trimmed.\n  add(item: string): void { this.items.push(item.trim()); }');
  });

  it('looks symbols up by name, exact or case-insensitive, through an index', () => {
    for (const [sql, params] of [['SELECT qualified_name FROM symbols WHERE name = ?', ['Store']], ['SELECT qualified_name FROM symbols WHERE lower(name) = ?', ['store']],
      ['SELECT s.qualified_name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name IN (?, ?)', ['Store', 'run']]] as const) {
      const plan = db.all(`EXPLAIN QUERY PLAN ${sql}`, [...params]).map((r) => String(r.detail)).join('\n');
      assert.doesNotMatch(plan, /\bSCAN\b/, `${sql}\n${plan}`);
    }
    assert.deepEqual(db.all('SELECT qualified_name AS q FROM symbols WHERE lower(name) = ?', ['store']), [{ q: 'Store' }]);
  });
});
