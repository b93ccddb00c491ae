/**
 * Search terms counted on the parse workers (parse/search-terms.ts): the same tokens as the tokenizer gives for each
 * chunk body, postings byte for byte as the indexing thread made them from the text, from the worker host too, and
 * journals written before them (each chunk's search text as UTF-8) still replay to the same rows.
 * Needs a build first: `node esbuild.mjs cli worker tests` (dist/ holds the grammars, queries and the worker).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { languageForPath } from '../../src/core/parse/languages';
import { searchableText } from '../../src/core/parse/identifiers';
import { chunkCount, searchTerms, type SearchTerms } from '../../src/core/parse/search-terms';
import { packForIndex, TreeSitterService } from '../../src/core/parse/tree-sitter-service';
import type { ParseResult } from '../../src/core/parse/types';
import { applyChange } from '../../src/core/store/changes';
import { IndexDatabase } from '../../src/core/store/database';
import { tokens } from '../../src/core/store/tokenize';
import { createNodeAssetLocator } from '../../src/node/assets';
import { createWorkerParserHost } from '../../src/node/worker-parser-host';
import { ASSET_ROOT, REPO_ROOT } from '../helpers/workspace';

const assets = createNodeAssetLocator(ASSET_ROOT);
const newDb = () => IndexDatabase.create(assets, { schema_version: 'test' });

/** Per chunk, its tokens with counts in the order they first occur, read back from `search`. */
function expand(search: SearchTerms): Array<Array<[string, number]>> {
  const out: Array<Array<[string, number]>> = [];
  for (let at = 0; at < search.hits.length; at += 1 + 2 * search.hits[at]!) {
    const chunk: Array<[string, number]> = [];
    for (let k = 0; k < search.hits[at]!; k++) chunk.push([search.terms[search.hits[at + 1 + 2 * k]!]!, search.hits[at + 2 + 2 * k]!]);
    out.push(chunk);
  }
  return out;
}

/** What the tokenizer gives for `body`, counted in the order tokens first occur. */
function counted(body: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const t of tokens(body)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts];
}

/** Every table the postings write, in a fixed order. */
function postingRows(db: IndexDatabase): unknown {
  return ['postings', 'postings_segs', 'chunk_sizes', 'dead_chunks', 'meta'].map((t) => db.rows(`SELECT * FROM ${t} ORDER BY 1, 2`));
}

const files = ['src/core/store/postings-writer.ts', 'src/core/parse/identifiers.ts', 'scripts/bench-index.mjs'];

async function parsed(path: string): Promise<{ path: string; text: string; raw: ParseResult }> {
  const text = readFileSync(join(REPO_ROOT, path), 'utf8');
  const raw = await new TreeSitterService(assets).extract({ path, language: languageForPath(path)!.id, text });
  assert.ok(raw.chunks.length > 2, `${path} has chunks`);
  return { path, text, raw };
}

const write = (path: string, text: string, result: ParseResult, now: number) => ({
  op: 'write' as const, facts: { path, language: result.language, size: text.length, mtimeMs: now, hash: `h${now}`, lines: text.split('\n').length }, result, now,
});

describe('search terms', () => {
  it('give each chunk the tokenizer\'s tokens with their counts', () => {
    const bodies = ['', 'getusername get user name getusername', 'Ünïcode ÀB mixedCASE mixedcase 👋 a👋b 𝒳y', 'x 1 x_1 x$ 1e10', '   ', 'get user'];
    const search = searchTerms(bodies);
    assert.equal(chunkCount(search), bodies.length);
    assert.deepEqual(expand(search), bodies.map(counted));
    // One entry per distinct token of the file, however many chunks hold it.
    assert.equal(new Set(search.terms).size, search.terms.length);
  });

  it('make the postings the indexing thread made from the body texts, byte for byte', async () => {
    const counted = await newDb();
    const scanned = await newDb();
    let id = 0;
    for (const path of files) {
      const { raw } = await parsed(path);
      const bodies = raw.chunks.map((c) => searchableText(c.text));
      const search = searchTerms(bodies);
      let at = 0;
      counted.transaction(() => {
        for (const [j, c] of raw.chunks.entries()) at = counted.postings.addCounted(counted, id + 1 + j, c.symbol ?? '', path, search, at);
      });
      scanned.transaction(() => {
        for (const [j, c] of raw.chunks.entries()) scanned.postings.add(scanned, id + 1 + j, c.symbol ?? '', path, bodies[j]!);
      });
      assert.equal(at, search.hits.length);
      id += raw.chunks.length;
    }
    assert.ok(id > 20);
    assert.deepEqual(postingRows(counted), postingRows(scanned));
    counted.close();
    scanned.close();
  });

  it('come back from the worker parser host with no chunk text', async () => {
    const host = createWorkerParserHost(ASSET_ROOT, 1);
    try {
      const { path, text, raw } = await parsed(files[0]!);
      const [result] = await host.parse([{ path, language: raw.language, text }]);
      assert.ok(result?.search, 'the worker counted the search terms');
      assert.ok(result.search.hits instanceof Uint32Array);
      assert.ok(result.chunks.every((c) => c.text === '' && !('utf8' in c)));
      assert.deepEqual(result.search, packForIndex(structuredClone(raw), text).search);
    } finally {
      await host.dispose();
    }
  });

  it('replay a journal written before them (chunk search texts as UTF-8) to the same rows', async () => {
    const current = await newDb();
    const journalled = await newDb();
    for (const [i, path] of files.entries()) {
      const { text, raw } = await parsed(path);
      const legacy = packForIndex(structuredClone(raw), text);
      delete legacy.search;
      for (const [j, c] of legacy.chunks.entries()) Object.assign(c, { utf8: { search: new TextEncoder().encode(searchableText(raw.chunks[j]!.text)) } });
      current.transaction(() => applyChange(current, write(path, text, packForIndex(structuredClone(raw), text), i + 1)));
      journalled.transaction(() => applyChange(journalled, write(path, text, legacy, i + 1)));
    }
    current.postings.flush(current);
    journalled.postings.flush(journalled);
    const all = (db: IndexDatabase) => ['files', 'symbol_rows', 'chunk_spans', 'ref_rows', ...['postings', 'postings_segs', 'chunk_sizes', 'meta']].map((t) => db.rows(`SELECT * FROM ${t} ORDER BY 1, 2`));
    assert.deepEqual(all(journalled), all(current));
    current.close();
    journalled.close();
  });
});
