/** A code graph the size of a large workspace's: `n` files in folders of 50, each importing a few files. Deterministic. */
import type { GraphView } from '../../src/protocol/webview';

export function syntheticGraph(n: number, perFile = 3): GraphView {
  const folders = Math.ceil(n / 50);
  const id = (i: number): string => `packages/p${i % folders}/src/file${i}.ts`;
  const nodes = Array.from({ length: n }, (_, i) => ({ ref_id: id(i), kind: 'file', summary: '' }));
  const edges: GraphView['edges'] = [];
  let seed = 7;
  const next = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed; };
  for (let i = 0; i < n; i++) for (let k = 0; k < perFile; k++) {
    const j = next() % n;
    if (j !== i) edges.push({ src: id(i), dst: id(j), kind: 'imports' });
  }
  return { nodes, edges, mermaid: '', unreadable: [] };
}
