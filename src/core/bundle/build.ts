/** Assembles a context bundle: resolve, walk, then gather docs, code, sync, rules, routes, tests and activity. */
import { nodeActivity } from '../activity/activity';
import { SECTION_PRIORITY, type DocChunk } from '../docs/markdown';
import { computeSync, type HashSource, type SyncState } from '../docs/sync';
import { bfsSubgraph } from '../graph/bfs';
import type { CodeSymbol } from '../graph/code-view';
import { describeNode, neighboursOf, resolveRef, type Knowledge, type Resolved } from '../graph/knowledge';
import type { Git, FileSystem } from '../ports';
import { rulesRelevantTo } from '../rules/evaluate';
import type { RuleSet } from '../rules/load';
import { routesOfFiles } from '../routes/for-files';
import { listTree } from '../graph/workspace-files';
import type { WalkRules } from '../workspace/walk';
import { mapTests } from '../testmap/map';
import { BUNDLE_DEFAULTS, type BundleOptions, type ContextBundle } from './types';

export const MAX_CODE_SYMBOLS = 100;

export interface BuildContext {
  fs: FileSystem;
  root: string;
  /** The index's ignore chain: schema files are looked for among the files the index sees. */
  walkRules: WalkRules;
  git?: Git;
  /** Why there is no git history, when that is known before asking git (not a checkout, no git port). */
  gitUnavailable?: string;
  now: number;
  rules: RuleSet;
  sync: SyncState;
  hashes: HashSource;
  lastReindex: string | null;
}

export interface Built {
  bundle: ContextBundle;
  /** Docs the bundle read, so a cache entry can be checked against them. */
  docs: string[];
}

export async function buildBundle(k: Knowledge, ctx: BuildContext, refIds: readonly string[], options: BundleOptions = {}): Promise<Built> {
  const depth = clampInt(options.depth, BUNDLE_DEFAULTS.depth, 0, 10);
  const maxNodes = clampInt(options.maxNodes, BUNDLE_DEFAULTS.maxNodes, 1, 10_000);
  const maxChunks = clampInt(options.maxChunks, BUNDLE_DEFAULTS.maxChunks, 0, 1000);
  const resolved = refIds.map((id) => resolveRef(k, id));
  const focusIds = [...new Set(resolved.map((r) => r.id))];
  const sub = bfsSubgraph(focusIds, neighboursOf(k), { depth, maxNodes });
  const warnings: string[] = [];
  if (sub.truncated) warnings.push(`subgraph cut at max_nodes=${Math.max(maxNodes, focusIds.length)}`);
  if (k.codeMissing) warnings.push(k.codeMissing);
  const loadErrors = k.graph.issues.filter((i) => i.severity === 'error').length;
  if (loadErrors) warnings.push(`the graph has ${loadErrors} load error${loadErrors === 1 ? '' : 's'} (see \`context-oracle lint\`)`);
  const declared = sub.nodes.filter((id) => k.graph.nodes.has(id));

  const docsRead: string[] = [];
  const chunks: Array<DocChunk & { rank: number }> = [];
  const seenDocs = new Set<string>();
  for (const [rank, id] of declared.entries()) {
    for (const path of await k.docs.expand(k.graph.nodes.get(id)!.docs)) {
      if (seenDocs.has(path)) continue;
      seenDocs.add(path);
      docsRead.push(path);
      const doc = await k.docs.get(path);
      if (!doc.exists) warnings.push(`doc ${path} of ${id} is missing`);
      for (const c of doc.chunks) chunks.push({ ...c, rank });
    }
  }
  chunks.sort((a, b) => SECTION_PRIORITY[a.section] - SECTION_PRIORITY[b.section] || a.rank - b.rank || a.index - b.index);

  let codeSymbols: CodeSymbol[] = [];
  if (k.code) {
    const got = k.code.symbolsOfNodes(k.graph, declared, MAX_CODE_SYMBOLS);
    codeSymbols = got.symbols;
    for (const id of sub.nodes) {
      const ref = k.graph.nodes.has(id) ? undefined : k.code.ref(id);
      if (ref?.type === 'symbol' && !codeSymbols.some((s) => s.file_path === ref.path && s.symbol_name === ref.qname)) {
        codeSymbols.push({ file_path: ref.path, symbol_name: ref.qname, kind: ref.kind, line_start: ref.lineStart, line_end: ref.lineEnd });
      }
    }
    if (got.total > MAX_CODE_SYMBOLS) warnings.push(`code_symbols lists ${MAX_CODE_SYMBOLS} of ${got.total}`);
  }

  const { report } = await computeSync(k, ctx.sync, ctx.hashes, declared);
  const staleDocs = report.pairs.filter((p) => p.status === 'stale').map((p) => ({ doc_path: p.doc_path, code_path: p.code_path }));

  const focus = resolved[0]!;
  const focusInfo = await focusDetails(k, ctx, focus, warnings);
  const bundle: ContextBundle = {
    version: 2,
    focus: focusInfo.focus,
    graph: { nodes: sub.nodes.map((id) => describeNode(k, id)), edges: sub.edges },
    text_chunks: chunks.slice(0, maxChunks).map((c) => ({ doc_path: c.doc_path, section: c.section, heading: c.heading, content: c.content })),
    code_symbols: codeSymbols,
    sync_status: { stale_docs: staleDocs, last_reindex: ctx.lastReindex },
    constraints: rulesRelevantTo(k, ctx.rules.rules, declared).map((r) => ({ rule: r.name, description: r.description, type: r.type, definition: r.definition })),
    routes: focusInfo.routes,
    tests: focusInfo.tests,
    warning: warnings.length ? warnings.join('; ') : null,
  };
  return { bundle, docs: docsRead };
}

async function focusDetails(k: Knowledge, ctx: BuildContext, focus: Resolved, warnings: string[]): Promise<{ focus: ContextBundle['focus']; routes: ContextBundle['routes']; tests: ContextBundle['tests'] }> {
  const info: ContextBundle['focus'] = describeNode(k, focus.id);
  const node = focus.type === 'declared' ? k.graph.nodes.get(focus.id)! : undefined;
  if (node?.links.length) info.links = node.links;
  // Code files of the focus: a node's linked files, a file itself, or the file holding a symbol.
  const files = node ? (k.code ? k.code.filesOfNode(k.graph, node.ref_id) : []) : [focus.type === 'declared' ? focus.id : focus.path];
  // Schema files (.graphql, .proto) are not indexed; look for them under the node's source folder.
  const schemaFiles = node?.source ? await listTree(ctx.fs, ctx.root, ctx.walkRules, node.source, (n) => /\.(graphql|gql|proto)$/i.test(n), 200) : [];
  let routes = (await routesOfFiles(ctx.fs, ctx.root, k.code, [...files, ...schemaFiles])).filter((r) => focus.type !== 'symbol' || (r.line >= focus.lineStart && r.line <= focus.lineEnd));
  if (!routes.length && Array.isArray(node?.extra.routes)) routes = node!.extra.routes as typeof routes;
  const declaredActivity = node?.extra.activity as ContextBundle['focus']['activity'] | undefined;
  if (declaredActivity && typeof declaredActivity === 'object') info.activity = declaredActivity;
  else {
    const paths = node ? [...new Set([...(node.source ? [node.source] : []), ...files])] : files;
    // A node with no code has no history to look up; that is not worth a warning.
    const got = !paths.length ? undefined : ctx.gitUnavailable ? { unavailable: ctx.gitUnavailable } : await nodeActivity(ctx.git, paths, ctx.now);
    if (got && 'activity' in got) info.activity = got.activity;
    else if (got) warnings.push(`activity unavailable: ${got.unavailable}`);
  }
  let tests: ContextBundle['tests'] = null;
  if (node && k.code) tests = await mapTests(ctx.fs, ctx.root, k.code, node, files);
  else if (node?.extra.tests && typeof node.extra.tests === 'object') tests = node.extra.tests as ContextBundle['tests'];
  return { focus: info, routes: routes.map((r) => ({ method: r.method, path: r.path, handler: r.handler, file: r.file, line: r.line })), tests };
}

function clampInt(v: number | undefined, fallback: number, min: number, max: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(v)));
}
