/**
 * A starter graph proposed from what the index knows, for a workspace with no declared graph: its folders (or
 * packages) as nodes and the imports between them as `uses` edges. Plain data in and out; the user's click writes it
 * (as YAML) to the graph folder, to be edited: the names and summaries are guesses a person should correct.
 */

export interface StarterInput {
  /** Workspace-relative POSIX paths of the indexed files. */
  files: readonly string[];
  /** Imports that resolve inside the workspace (file → file). */
  imports: ReadonlyArray<{ from: string; to: string }>;
}

export interface StarterNode {
  ref_id: string;
  kind: 'package';
  summary: string;
  /** The folder, with a trailing slash (the graph's `source`). */
  source: string;
}

export interface StarterGraph {
  nodes: StarterNode[];
  edges: Array<{ src: string; dst: string; kind: 'uses' }>;
}

/** Where the starter graph is written, inside the native graph folder. */
export const STARTER_GRAPH_PATH = '.context-oracle/graph/architecture.yml';

const MAX_NODES = 24;
/** A folder holding more than this share of its group's files is split into its subfolders (`src/` → `src/core/`, …). */
const SPLIT_SHARE = 0.5;

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The folder each file belongs to: top-level folders, the dominant ones split until they stop dominating. */
function groupFiles(files: readonly string[]): Map<string, string> {
  const folderOf = new Map<string, string>();
  for (const f of files) if (f.includes('/')) folderOf.set(f, f.split('/')[0]!);
  for (let round = 0; round < 6; round++) {
    const counts = new Map<string, number>();
    for (const g of folderOf.values()) counts.set(g, (counts.get(g) ?? 0) + 1);
    const total = folderOf.size;
    const [big, n] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? ['', 0];
    if (!big || n / total <= SPLIT_SHARE) break;
    const next = new Map(folderOf);
    for (const [f, g] of folderOf) {
      if (g !== big) continue;
      const rest = dirOf(f).slice(big.length + 1);
      if (rest) next.set(f, `${big}/${rest.split('/')[0]}`);
    }
    const after = new Set(next.values()).size;
    // Stop when splitting gains nothing (all files in one subfolder) or would make too many nodes.
    if (after <= counts.size || after > MAX_NODES) break;
    folderOf.clear();
    for (const [f, g] of next) folderOf.set(f, g);
  }
  return folderOf;
}

/** Short, unique ref_ids: the folder's last segment, more segments where two would clash. */
function refIds(folders: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let depth = 1; out.size < folders.length; depth++) {
    const names = new Map<string, string[]>();
    for (const f of folders) {
      if (out.has(f)) continue;
      const id = f.split('/').slice(-depth).join('-').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'root';
      names.set(id, [...(names.get(id) ?? []), f]);
    }
    const taken = new Set(out.values());
    for (const [id, fs] of names) {
      const whole = fs.every((f) => f.split('/').length <= depth);
      if ((fs.length === 1 || whole) && !taken.has(id)) fs.forEach((f, i) => out.set(f, i ? `${id}-${i + 1}` : id));
    }
    if (depth > 12) for (const f of folders) if (!out.has(f)) out.set(f, f.replace(/\W+/g, '-'));
  }
  return out;
}

export function proposeStarterGraph(input: StarterInput): StarterGraph {
  const folderOf = groupFiles(input.files);
  const sizes = new Map<string, number>();
  for (const g of folderOf.values()) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  // The biggest folders, when there are more than a person would want to start from.
  const kept = [...sizes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_NODES).map(([g]) => g).sort();
  const ids = refIds(kept);
  const nodes = kept.map((g) => ({ ref_id: ids.get(g)!, kind: 'package' as const, summary: `The code in ${g}/ (${sizes.get(g)} files)`, source: `${g}/` }));
  const seen = new Set<string>();
  const edges: StarterGraph['edges'] = [];
  for (const { from, to } of input.imports) {
    const a = ids.get(folderOf.get(from) ?? '');
    const b = ids.get(folderOf.get(to) ?? '');
    if (!a || !b || a === b || seen.has(`${a}\0${b}`)) continue;
    seen.add(`${a}\0${b}`);
    edges.push({ src: a, dst: b, kind: 'uses' });
  }
  edges.sort((x, y) => (x.src + '\0' + x.dst < y.src + '\0' + y.dst ? -1 : 1));
  return { nodes, edges };
}

const q = (s: string): string => JSON.stringify(s);

/** The graph file's text: the native format, with a header that says it is a draft to edit. */
export function starterGraphYaml(g: StarterGraph): string {
  const lines = [
    '# A starter graph proposed by Context Oracle from the index: folders as nodes, imports as edges.',
    '# Rename the nodes, write real summaries, link docs (docs: [path]) and delete what does not matter.',
    'nodes:',
    ...g.nodes.flatMap((n) => [`  - ref_id: ${q(n.ref_id)}`, `    kind: ${n.kind}`, `    summary: ${q(n.summary)}`, `    source: ${q(n.source)}`]),
    ...(g.edges.length ? ['', 'edges:', ...g.edges.map((e) => `  - { src: ${q(e.src)}, dst: ${q(e.dst)}, kind: ${e.kind} }`)] : ['', 'edges: []']),
  ];
  return `${lines.join('\n')}\n`;
}
