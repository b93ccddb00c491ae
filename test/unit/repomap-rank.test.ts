/**
 * The map's ranking computes Aider's multigraph PageRank through identifier nodes instead of materialising one
 * edge per (referencer, definer, identifier). This checks it against the straightforward multigraph computation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdentGraphBuilder } from '../../src/core/repomap/ident-graph';
import { TagTable } from '../../src/core/repomap/tag-table';
import { identMultiplier, rankDefinitions, type RankInput } from '../../src/core/repomap/rank';
import type { MapData } from '../../src/core/repomap/types';
import { localeOrder } from '../../src/core/strings';

interface Random {
  data: MapData;
  defines: Map<string, number[]>;
  references: Map<string, Map<number, number>>;
}

function randomData(seed: number, files: number, idents: number): Random {
  let s = seed;
  const random = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const names = Array.from({ length: idents }, (_, i) => (i % 4 === 0 ? `_private${i}` : i % 3 === 0 ? `longCamelName${i}` : `n${i}`));
  const defines = new Map<string, number[]>();
  const references = new Map<string, Map<number, number>>();
  for (const name of names) {
    const definers = [...new Set(Array.from({ length: 1 + Math.floor(random() * (random() < 0.2 ? 8 : 2)) }, () => Math.floor(random() * files)))].sort((a, b) => a - b);
    defines.set(name, definers);
    if (random() < 0.15) continue; // defined, never referenced
    const refs = new Map<number, number>();
    for (let k = 0; k < 1 + Math.floor(random() * 5); k++) refs.set(Math.floor(random() * files), 1 + Math.floor(random() * 4));
    references.set(name, refs);
  }
  const graph = new IdentGraphBuilder();
  for (const [name, definers] of defines) for (const f of definers) graph.define(name, f);
  const paths = Array.from({ length: files }, (_, i) => `f${String(i).padStart(3, '0')}.ts`);
  const data: MapData = {
    version: 'test', files: paths, fileWeight: new Float64Array(files).fill(1), tags: TagTable.empty(files), idents: graph.build((emit) => {
      for (const [name, refs] of references) for (const [f, n] of refs) emit(graph.identOf(name)!, f, n);
    }),
    details: new Map(), pathOrder: localeOrder(paths),
    // Not from an index: the ranking reads none of it.
    sources: { fileIds: new Int32Array(files), fileStamps: [], refStart: new Int32Array(files + 1), refNames: new Int32Array(0), refCounts: new Int32Array(0), nameIds: new Int32Array(0), lastNameId: 0, reread: files },
  };
  return { data, defines, references };
}

/** Aider's algorithm, written out: explicit edges, networkx-style PageRank, rank spread over out-edges. */
function reference({ data, defines, references }: Random, input: RankInput): { fileRank: number[]; defs: Map<string, number> } {
  const n = data.files.length;
  const edges: { src: number; dst: number; w: number; ident: string }[] = [];
  for (const [ident, definers] of defines) {
    const refs = references.get(ident);
    if (!refs) {
      for (const d of definers) edges.push({ src: d, dst: d, w: 0.1, ident });
      continue;
    }
    const mul = identMultiplier(ident, definers.length, input.mentionedIdents);
    for (const [src, count] of refs) for (const dst of definers) edges.push({ src, dst, w: mul * (input.focusFiles.has(src) ? 50 : 1) * Math.sqrt(count), ident });
  }
  const out = new Array<number>(n).fill(0);
  for (const e of edges) out[e.src] += e.w;
  const p = new Array<number>(n).fill(0);
  const total = [...input.personalization.values()].reduce((a, b) => a + b, 0);
  for (let f = 0; f < n; f++) p[f] = total ? (input.personalization.get(f) ?? 0) / total : 1 / n;
  let x = [...p];
  for (let iter = 0; iter < 100; iter++) {
    const next = new Array<number>(n).fill(0);
    const dangling = x.reduce((a, v, f) => a + (out[f] === 0 ? v : 0), 0);
    for (const e of edges) next[e.dst] += 0.85 * x[e.src]! * e.w / out[e.src]!;
    for (let f = 0; f < n; f++) next[f] += (0.85 * dangling + 0.15) * p[f]!;
    const err = next.reduce((a, v, f) => a + Math.abs(v - x[f]!), 0);
    x = next;
    if (err < n * 1e-6) break;
  }
  const defs = new Map<string, number>();
  for (const e of edges) defs.set(`${e.dst}:${e.ident}`, (defs.get(`${e.dst}:${e.ident}`) ?? 0) + x[e.src]! * e.w / out[e.src]!);
  return { fileRank: x, defs };
}

describe('repo map ranking', () => {
  for (const [label, input] of [
    ['uniform', { personalization: new Map(), mentionedIdents: new Set<string>(), focusFiles: new Set<number>() }],
    ['focused', { personalization: new Map([[3, 1], [7, 1]]), mentionedIdents: new Set(['n5', 'longCamelName9']), focusFiles: new Set([3]) }],
  ] as const) {
    it(`equals the explicit multigraph PageRank (${label})`, () => {
      for (const seed of [1, 2, 3]) {
        const random = randomData(seed, 40, 60);
        const fast = rankDefinitions(random.data, input as RankInput);
        const slow = reference(random, input as RankInput);
        fast.fileRank.forEach((r, f) => assert.ok(Math.abs(r - slow.fileRank[f]!) < 1e-9, `file ${f}: ${r} vs ${slow.fileRank[f]}`));
        // Mentioned identifiers get a deliberate bonus on top; compare the rest.
        const defs = fast.definitions;
        for (let k = 0; k < defs.file.length; k++) {
          const name = random.data.idents.names[defs.ident[k]!]!;
          if (input.mentionedIdents.has(name)) continue;
          const want = slow.defs.get(`${defs.file[k]}:${name}`)!;
          assert.ok(Math.abs(defs.rank[k]! - want) < 1e-9, `${defs.file[k]}:${name}: ${defs.rank[k]} vs ${want}`);
          if (k > 0) assert.ok(defs.rank[k - 1]! >= defs.rank[k]!, 'best first');
        }
        assert.equal(defs.file.length, slow.defs.size);
      }
    });
  }

  it('weighs identifiers like Aider', () => {
    const none = new Set<string>();
    assert.equal(identMultiplier('x', 1, none), 1);
    assert.equal(identMultiplier('getUserName', 1, none), 10, 'long compound names');
    assert.equal(identMultiplier('_hidden', 1, none), 0.1);
    assert.equal(identMultiplier('run', 6, none), 0.1, 'defined in more than five files');
    assert.equal(identMultiplier('run', 1, new Set(['run'])), 10, 'mentioned');
  });
});
