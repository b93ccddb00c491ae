/**
 * The parser's floor (issue 21): what web-tree-sitter alone costs on the files an index holds, in one thread, with
 * nothing else of the indexer around it: parse every file, then parse and run its language's tags query over the
 * tree (stepping every capture, as extraction must). A full index cannot cost less CPU than the second figure, so
 * this says how far indexing is from its parser and how far a WASM parser is from a native indexer's whole run.
 * Built by `node esbuild.mjs bench` into out/bench/parse-floor.js; run on an index built by
 * `context-oracle index --root DIR --db DB`: `node out/bench/parse-floor.js DB DIR [--rounds N] [--json]`
 * (`--json`: one line of figures, which `npm run bench:index` reports beside the full index).
 * Round 1 is what an index run pays (grammars compiling and tiering up as they go); later rounds are steady state.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { Language, Parser, Query } from 'web-tree-sitter';
import { LANGUAGES } from '../../src/core';
import { textForParser } from '../../src/core/parse/languages';

const cpuS = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1e6;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [db, dir] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!db || !dir) throw new Error('usage: parse-floor.js DB DIR [--rounds N]');
  const rounds = Number(args[args.indexOf('--rounds') + 1]) || 3;
  const json = args.includes('--json');
  const assets = resolve('dist');

  const SQL = await initSqlJs({ locateFile: (f: string) => join(assets, f) });
  const index = new SQL.Database(readFileSync(db));
  const rows = index.exec('SELECT path, language FROM files ORDER BY path')[0]?.values ?? [];
  index.close();

  // The typings ask for a whole EmscriptenModule; the runtime takes a partial one (as tree-sitter-service.ts does).
  await Parser.init({ locateFile: (f: string) => join(assets, f) } as unknown as EmscriptenModule);
  const byId = new Map(LANGUAGES.map((l) => [l.id, l] as const));
  const loaded = new Map<string, { parser: Parser; query: Query }>();
  let setupCpu = process.cpuUsage();
  for (const id of new Set(rows.map((r) => String(r[1])))) {
    const spec = byId.get(id);
    if (!spec) continue;
    const language = await Language.load(readFileSync(join(assets, spec.grammar)));
    const parser = new Parser();
    parser.setLanguage(language);
    loaded.set(id, { parser, query: new Query(language, spec.queries.map((q) => readFileSync(join(assets, q), 'utf8')).join('\n')) });
  }
  setupCpu = process.cpuUsage(setupCpu);
  const files = rows.flatMap(([path, id]) => {
    const spec = byId.get(String(id));
    return spec && loaded.has(spec.id) ? [{ text: textForParser(spec, readFileSync(join(dir, String(path)), 'utf8')), id: spec.id }] : [];
  });
  const mb = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0) / 1e6;

  const figures: Record<string, number> = { files: files.length, mb: +mb.toFixed(2), setupCpuS: +cpuS(setupCpu).toFixed(2) };
  if (!json) console.log(`${files.length} files, ${mb.toFixed(2)} MB, ${loaded.size} languages; grammars loaded and queries compiled: ${cpuS(setupCpu).toFixed(2)} CPU-s`);
  for (let round = 1; round <= rounds; round++) {
    for (const withQuery of [true, false]) {
      const c0 = process.cpuUsage();
      let captures = 0;
      for (const f of files) {
        const { parser, query } = loaded.get(f.id)!;
        const tree = parser.parse(f.text);
        if (!tree) continue;
        if (withQuery) for (const m of query.matches(tree.rootNode)) for (const c of m.captures) captures += c.node.startIndex >= 0 ? 1 : 0;
        tree.delete();
      }
      const s = cpuS(process.cpuUsage(c0));
      figures[`round${round}${withQuery ? 'ParseQuery' : 'Parse'}CpuS`] = +s.toFixed(2);
      if (!json) console.log(`round ${round} ${withQuery ? 'parse+query' : 'parse      '}: ${s.toFixed(2)} CPU-s, ${(mb / s).toFixed(2)} MB/s per core${withQuery ? `, ${captures} captures` : ''}`);
    }
  }
  if (json) console.log(JSON.stringify(figures));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
