// npm run bench:ctx -- [--nodes N] [--samples N]
// Context-bundle latency on a generated graph (default 2,000 nodes, ~4,000 edges, a doc per node, annotated code).
// Reports p50/p95 for: cold bundles (cache miss, graph already parsed), warm bundles (L1 hits), L2 hits in a new
// engine, the one-off first call of a process (graph from YAML, or from the parse cache), and concept queries
// (`query TERM`, depth 1 and 2, limit 10; the seed's goal is < 200 ms). Never a CI gate.
import * as esbuild from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : dflt; };
const NODES = opt('nodes', 2000);
const SAMPLES = opt('samples', 300);

// Bundle the engine (TypeScript) once for this script; the grammars and WASM come from dist/ (npm run bench:ctx builds it).
const outfile = resolve('out/bench/engine.cjs');
await esbuild.build({ entryPoints: ['src/node/node-engine.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'warning', external: ['vscode'],
  plugins: [{ name: 'wts', setup(b) { b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: resolve('node_modules/web-tree-sitter/tree-sitter.cjs') })); } }] });
const { createNodeEngine } = createRequire(import.meta.url)(outfile);

let seed = 42;
const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const pick = (n) => Math.floor(rand() * n);

const root = mkdtempSync(join(tmpdir(), 'co-bench-ctx-'));
const write = (rel, text) => { mkdirSync(dirname(join(root, rel)), { recursive: true }); writeFileSync(join(root, rel), text); };
const kinds = ['domain', 'feature', 'component', 'service', 'entity'];
const ids = Array.from({ length: NODES }, (_, i) => `node-${i}`);
const perFile = Math.ceil(NODES / 4);
for (let f = 0; f < 4; f++) {
  const lines = ['nodes:'];
  for (let i = f * perFile; i < Math.min(NODES, (f + 1) * perFile); i++) {
    lines.push(`  - ref_id: ${ids[i]}`, `    kind: ${kinds[i % kinds.length]}`, `    summary: Generated node ${i} for the context bench`,
      `    docs: [docs/${ids[i]}.md]`, ...(i % 10 === 0 ? [`    source: src/m${i}/`] : []));
  }
  lines.push('edges:');
  for (let i = f * perFile; i < Math.min(NODES, (f + 1) * perFile); i++) {
    if (i > 0) lines.push(`  - { src: ${ids[i]}, dst: ${ids[Math.floor(i / 8)]}, kind: part_of }`);
    lines.push(`  - { src: ${ids[i]}, dst: ${ids[pick(NODES)]}, kind: ${['uses', 'depends_on', 'touches_entity'][pick(3)]} }`);
  }
  write(`.context-oracle/graph/part-${f}.yml`, `${lines.join('\n')}\n`);
}
for (let i = 0; i < NODES; i++) {
  write(`docs/${ids[i]}.md`, `# ${ids[i]}\n\nIntro for ${ids[i]}.\n\n## Specification\n\n${'Spec sentence. '.repeat(20)}\n\n## Invariants\n\n- It holds.\n\n## API\n\n\`GET /n/${i}\`\n\n## Notes\n\n${'Note. '.repeat(30)}\n`);
  if (i % 10 === 0) write(`src/m${i}/service.py`, `# oracle:domain=${ids[i]}\nfrom fastapi import APIRouter\nrouter = APIRouter()\n\n@router.get("/n/${i}")\ndef handler_${i}():\n    return helper_${i}()\n\n\ndef helper_${i}():\n    return ${i}\n`);
}

const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const engineFor = () => createNodeEngine({ root, logger, assetRoot: resolve('dist'), workers: false });
const now = () => Number(process.hrtime.bigint()) / 1e6;
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))]; };
const fmt = (xs) => `p50 ${pct(xs, 0.5).toFixed(2)} ms, p95 ${pct(xs, 0.95).toFixed(2)} ms (n=${xs.length})`;

const indexer = engineFor();
await indexer.index();
await indexer.dispose();

const focus = Array.from({ length: SAMPLES }, () => ids[pick(NODES)]);
const keys = [...new Set(focus)];
const report = [];

let e = engineFor();
let t = now();
await e.contextBundle([keys[0]]);
report.push(`first call, new engine, graph parsed from YAML: ${(now() - t).toFixed(1)} ms`);
await e.dispose();

e = engineFor();
t = now();
await e.contextBundle([keys[1]]);
report.push(`first call, new engine, graph from the parse cache: ${(now() - t).toFixed(1)} ms`);

const cold = [];
for (const id of keys.slice(2)) { t = now(); const r = await e.contextBundle([id]); cold.push(now() - t); if (r.cache !== 'miss') throw new Error(`expected a miss for ${id}`); }
const warm = [];
for (const id of focus.filter((x) => x !== keys[0])) { t = now(); const r = await e.contextBundle([id]); warm.push(now() - t); if (r.cache !== 'l1') throw new Error(`expected an L1 hit for ${id}, got ${r.cache}`); }
// The engine writes the index only when an index run changed something: add a file no bundle depends on, so the
// write carries the bundle_cache rows and they stay valid.
write('tools/unrelated.py', 'def tool():\n    return 1\n');
await e.index();
await e.dispose();

// Concept queries: terms that hit many nodes (the limit fills and neighbours get their reserved room) and few.
const qEngine = engineFor();
await qEngine.conceptQuery('node-1');
const queries = { 1: [], 2: [] };
for (const depth of [1, 2]) {
  for (let i = 0; i < Math.min(SAMPLES, 200); i++) {
    const term = rand() < 0.5 ? `node-${pick(20)}` : ids[pick(NODES)];
    t = now();
    const r = await qEngine.conceptQuery(term, { depth, limit: 10 });
    queries[depth].push(now() - t);
    if (r.status !== 'success') throw new Error(`query ${term}: ${JSON.stringify(r.errors)}`);
  }
}
await qEngine.dispose();

const l2Engine = engineFor();
await l2Engine.contextBundle([keys[0]]);
const l2 = [];
for (const id of keys.slice(2)) { t = now(); const r = await l2Engine.contextBundle([id]); l2.push(now() - t); if (r.cache === 'miss') throw new Error(`expected an L2 hit for ${id}`); }
await l2Engine.dispose();

console.log(`context bundles on a generated graph: ${NODES} nodes, ${NODES * 2 - 1} edges, ${NODES} docs, ${Math.ceil(NODES / 10)} code files`);
console.log(`cold (cache miss, graph loaded): ${fmt(cold)}   goal p95 <= 50 ms`);
console.log(`warm (L1 hit):                   ${fmt(warm)}   goal p95 <= 10 ms`);
console.log(`L2 hit (new engine):             ${fmt(l2)}`);
console.log(`concept query, depth 1:          ${fmt(queries[1])}   goal p95 < 200 ms`);
console.log(`concept query, depth 2:          ${fmt(queries[2])}   goal p95 < 200 ms`);
for (const line of report) console.log(line);
rmSync(root, { recursive: true, force: true });
