/**
 * The full-text path's scores (text-retrieval.ts) against a reference written the plain way, on a real index (sql.js
 * + tree-sitter): per chunk BM25 summed row by row, a nested chunk found by comparing every pair of a file's matching
 * chunks, per file the term counts, BM25, coverage, focus, top scores and best chunk. The engine scores term by term
 * over the postings, groups rows by file and orders a file's chunks by insertion: the reference does none of that, so
 * a wrong row, a wrong nesting or a lost removed chunk shows as a different number. Equal means bit for bit.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/core/config';
import { dbFacts } from '../../src/core/context/db-facts';
import { termQuery, type WeightedTerms } from '../../src/core/context/terms';
import { retrieveText } from '../../src/core/context/text-retrieval';
import { runIndex } from '../../src/core/index/indexer';
import type { EngineDeps } from '../../src/core/ports';
import type { IndexDatabase } from '../../src/core/store/database';
import { deadChunkCount, postingStats, termPostings } from '../../src/core/store/postings';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { removeWorkspace } from '../helpers/workspace';

// Classes with methods (chunks inside chunks, the file's own chunk numbered last), same-range chunks, a file that
// holds a word only in its path, copies, and a file changed after indexing (its old chunks' postings stay, dead).
const SESSION = `// session store: keeps the session token
export class SessionStore {
  private tokens = new Map<string, string>();
  // read the session token for a user
  token(user: string): string | undefined { return this.tokens.get(user); }
  // write the session token
  save(user: string, token: string): void { this.tokens.set(user, token); }
  expire(user: string): void {
    function forget(token: string) { return token.length; }
    forget(this.token(user) ?? '');
  }
}
export function sessionToken(store: SessionStore, user: string) { return store.token(user); }
`;
const FILES: Record<string, string> = {
  'src/auth/session.ts': SESSION,
  'vendor/a/auth/session.ts': SESSION,
  'vendor/b/auth/session.ts': SESSION,
  'src/auth/token/index.ts': 'export const version = 1;\n',
  'src/http/cookie.py': 'class Cookie:\n    """the session cookie"""\n    def token(self):\n        def inner():\n            return "token"\n        return inner()\n\n    def user(self):\n        return self.token()\n',
  'src/util/log.go': 'package util\n\n// write a log line for the session\nfunc Write(line string) {}\n\nfunc Token() string { return "token token token" }\n',
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/misc/m${i}.ts`, `// user ${i} notes\nexport const m${i} = "token ${'user '.repeat(i)}";\n`])),
};

const K1 = 1.2;
const B = 0.75;
const idfOf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/** The engine's scores, computed the plain way (see the file comment). */
function reference(db: IndexDatabase, query: WeightedTerms) {
  const facts = dbFacts(db);
  const table = facts.chunks;
  const { terms, weights } = query;
  const p = terms.length;
  const lists = terms.map((t) => termPostings(db, termQuery(t)));
  const stats = postingStats(db);
  const avg = [stats.avg[0] || 1, stats.avg[1] || 1, stats.avg[2] || 1];
  // Per chunk id, per term: [name, path, body]; removed chunks count in document frequencies only.
  const byChunk = new Map<number, number[][]>();
  const docs = terms.map(() => [0, 0, 0]);
  lists.forEach((list, t) => {
    for (let i = 0; i < list.length; i++) {
      const id = list.ids[i]!;
      const counts = [0, 1, 2].map((c) => list.counts[3 * i + c]!);
      counts.forEach((n, c) => { if (n) docs[t]![c]!++; });
      if (!table.has(id)) continue;
      if (!byChunk.has(id)) byChunk.set(id, terms.map(() => [0, 0, 0]));
      byChunk.get(id)![t] = counts;
    }
  });
  const ids = [...byChunk.keys()].sort((a, b) => a - b);
  const fileOf = (id: number): number => table.fileOf(id);
  const nested = (id: number): boolean => ids.some((j) => {
    if (j === id || fileOf(j) !== fileOf(id)) return false;
    const [sj, ej, si, ei] = [table.lineStartOf(j), table.lineEndOf(j), table.lineStartOf(id), table.lineEndOf(id)];
    return (sj < si && ej >= ei) || (sj === si && ej > ei) || (sj === si && ej === ei && j < id);
  });
  const score = new Map<number, number>();
  const mask = new Map<number, number>();
  const files = new Map<number, { tf: number[]; ids: number[] }>();
  for (const id of ids) {
    const counts = byChunk.get(id)!;
    const f = files.get(fileOf(id)) ?? { tf: new Array<number>(2 * p).fill(0), ids: [] };
    files.set(fileOf(id), f);
    f.ids.push(id);
    let s = 0;
    let m = 0;
    const nameNorm = K1 * (1 - B + (B * table.nameLength(id)) / avg[0]!);
    const bodyNorm = K1 * (1 - B + (B * table.bodyLength(id)) / avg[2]!);
    for (let t = 0; t < p; t++) {
      const [name, path, body] = counts[t]!;
      f.tf[p + t] = Math.max(f.tf[p + t]!, path!);
      if (!name && !body) continue;
      m |= 1 << t;
      if (!nested(id)) f.tf[t]! += body!;
      if (name) s += weights[t]! * 3 * idfOf(stats.docs, docs[t]![0]!) * ((name * (K1 + 1)) / (name + nameNorm));
      if (body) s += weights[t]! * idfOf(stats.docs, docs[t]![2]!) * ((body * (K1 + 1)) / (body + bodyNorm));
    }
    score.set(id, s);
    mask.set(id, m);
  }
  const { relLength, countsForIdf } = facts.fileColumns();
  const df = terms.map((_, t) => [...files].filter(([id, f]) => countsForIdf[id] && f.tf[t]! + f.tf[p + t]! > 0).length);
  const idf = terms.map((_, t) => idfOf(Math.max(facts.idfFiles, 1), df[t]!));
  const idfTotal = idf.reduce((a, b, t) => a + b * weights[t]!, 0) || 1;
  const out = new Map<number, unknown>();
  for (const [id, f] of files) {
    let bm25 = 0;
    let covered = 0;
    for (let t = 0; t < p; t++) {
      const hits = f.tf[t]! + f.tf[p + t]!;
      if (!hits) continue;
      covered += idf[t]! * weights[t]!;
      bm25 += weights[t]! * idf[t]! * ((hits * (K1 + 1)) / (hits + K1 * (1 - B + B * relLength[id]!)));
    }
    let focus = 0;
    for (const c of f.ids) {
      let share = 0;
      for (let t = 0; t < p; t++) if (mask.get(c)! & (1 << t)) share += idf[t]! * weights[t]!;
      focus = Math.max(focus, share / idfTotal);
    }
    const scores = f.ids.map((c) => score.get(c)!);
    const best = f.ids.find((c) => score.get(c) === Math.max(...scores))!;
    out.set(id, {
      bm25, coverage: covered / idfTotal, focus, top: [...scores].sort((a, b) => b - a).slice(0, 5), tf: f.tf,
      best: { id: best, bm25: score.get(best) }, bestLine: table.lineStartOf(best), hits: f.ids.map((c) => [c, score.get(c)]),
    });
  }
  return { idf, files: out, order: [...files.keys()], scores: score };
}

function engine(db: IndexDatabase, query: WeightedTerms) {
  const ev = retrieveText(db, dbFacts(db), query);
  const files = new Map<number, unknown>();
  for (const [id, f] of ev.files) {
    files.set(id, {
      bm25: f.bm25, coverage: f.coverage, focus: f.focus, top: f.top, tf: Array.from(f.tf),
      best: { id: f.best!.id, bm25: f.best!.bm25 }, bestLine: f.bestLine, hits: f.hits.map((h) => [h.id, h.bm25]),
    });
  }
  return { ev, idf: ev.idf, files, order: [...ev.files.keys()] };
}

const QUERIES: WeightedTerms[] = [
  { terms: ['session', 'token'], weights: [1, 1] },
  { terms: ['token', 'user', 'write', 'auth'], weights: [1, 0.5, 2, 1] },
  { terms: ['tokens', 'sessions'], weights: [1, 1] },
  { terms: ['session_token', 'cookie'], weights: [1, 1] },
  { terms: ['inner', 'forget', 'expire'], weights: [0.7, 1, 1] },
  // More terms than the focus shares are tabulated for (12): summed per chunk instead.
  { terms: ['session', 'token', 'user', 'write', 'auth', 'cookie', 'inner', 'forget', 'expire', 'store', 'log', 'line', 'notes'], weights: [1, 1, 0.5, 2, 1, 1, 0.7, 1, 1, 0.3, 1, 0.9, 1] },
];

let root = '';
let db: IndexDatabase;
let deps: EngineDeps;
let dispose: () => Promise<void>;
before(async () => {
  ({ root, db, deps, dispose } = await indexedWorkspace(FILES));
  // A changed file: its old chunks are removed, their postings stay until compaction.
  writeFileSync(join(root, 'src/util/log.go'), 'package util\n\n// session log\nfunc Session() string { return "user" }\n');
  await runIndex(deps, DEFAULT_CONFIG, db, false, { onlyPaths: ['src/util/log.go'] });
});
after(async () => {
  await dispose();
  removeWorkspace(root);
});

describe('retrieveText', () => {
  it('has removed chunks in the postings (the fixture must exercise them)', () => {
    assert.ok(deadChunkCount(db) > 0);
  });

  for (const query of QUERIES) {
    it(`scores "${query.terms.join(' ')}" as the plain reference does, bit for bit`, () => {
      const want = reference(db, query);
      const got = engine(db, query);
      assert.ok(want.order.length >= 3, 'the query must match several files');
      assert.deepEqual(got.order, want.order, 'files in the order their first chunk came');
      assert.deepEqual(got.idf, want.idf);
      for (const id of want.order) assert.deepEqual(got.files.get(id), want.files.get(id), `file ${id}`);
      for (const [id, s] of want.scores) assert.equal(got.ev.chunk(id)?.bm25, s, `chunk ${id}`);
      // The score columns that ranking reads by place hold what the views give.
      for (const id of want.order) {
        const place = got.ev.files.placeOf(id);
        const f = want.files.get(id) as { bm25: number; coverage: number; focus: number; top: number[] };
        assert.equal(got.ev.files.ids[place], id);
        assert.deepEqual([got.ev.files.bm25[place], got.ev.files.coverage[place], got.ev.files.focus[place]], [f.bm25, f.coverage, f.focus]);
        assert.equal(got.ev.files.chunkAgg(place), (f.top[0] ?? 0) + 0.25 * (f.top[1] ?? 0) + 0.1 * (f.top[2] ?? 0), `chunkAgg of file ${id}`);
      }
      assert.equal(got.ev.files.placeOf(-1), -1);
      assert.equal(got.ev.files.size, want.order.length);
      assert.equal(got.ev.files.get(-1), undefined);
      assert.equal(got.ev.files.has(want.order[0]!), true);
    });
  }

  it('counts a nested chunk\'s words once, in the outer chunk', () => {
    const { files } = reference(db, { terms: ['forget'], weights: [1] });
    const { ev } = engine(db, { terms: ['forget'], weights: [1] });
    const id = [...files.keys()][0]!;
    const hits = ev.files.get(id)!.hits;
    assert.ok(hits.length >= 2, 'the inner function and its method both match');
    // `forget` is written twice in the method, once of them inside the inner function: counted there only once.
    assert.equal(ev.files.get(id)!.tf[0], 2);
  });
});
