/**
 * Partial name matches found in memory (symbol-match.ts partialRows) against the SQL they replace, on a real index:
 * `LIKE '%text%'` (ASCII case folded, `_` one character, `%` any run) ordered by length with ties in row order,
 * first five. Names tie on length across files and within one, and some differ only in case or by a non-ASCII letter,
 * so a wrong tie order, case rule or wildcard shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dbFacts } from '../../src/core/context/db-facts';
import { partialRows } from '../../src/core/context/symbol-match';
import type { IndexDatabase } from '../../src/core/store/database';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';

const FILES: Record<string, string> = {
  'b/second.ts': 'export function loadUserData() {}\nexport function LOADUSERDATA() {}\nexport class UserLoader {}\nexport function load_user() {}\n',
  'a/first.ts': 'export function loadUserData() {}\nexport function loadUserDatum() {}\nexport function reloadUserData() {}\nexport function loadXuser() {}\n',
  'c/third.py': 'def load_user():\n    pass\n\ndef loaduser():\n    pass\n\ndef résumé_loader():\n    pass\n\ndef RÉSUMÉ_LOADER():\n    pass\n',
  'd/fourth.ts': 'export function userDataLoad() {}\nexport function userdataload() {}\nexport const usersLoadedOk = 1;\n',
};
const COLUMNS = 's.id, s.file_id, s.name, s.qualified_name, s.kind, s.container, s.line_start, s.line_end, s.name_line';

let root = '';
let db: IndexDatabase;
before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

describe('partialRows', () => {
  it('returns what LIKE ordered by length, first five, returns', () => {
    const facts = dbFacts(db);
    const texts = ['userdata', 'USERDATA', 'load_user', 'user_', 'oadus', 'sumé_', 'SUMÉ_', 'ésumé', 'Loade', 'a%load', 'nothing here', 'userDataLoad'];
    let found = 0;
    for (const text of texts) {
      const sql = db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name LIKE ? ORDER BY length(s.name) LIMIT 5`, [`%${text}%`]);
      assert.deepEqual(partialRows(db, facts, text), sql, text);
      if (sql.length) found++;
    }
    // Most texts match something, several more than five names with ties on length.
    assert.ok(found >= texts.length - 2, `${found} texts matched`);
    assert.equal(db.rows(`SELECT ${COLUMNS} FROM symbols s WHERE s.name LIKE '%userdata%'`).length > 5, true);
  });
});
