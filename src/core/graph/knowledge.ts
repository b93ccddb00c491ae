/**
 * The joined knowledge graph one request works on: the declared graph (from YAML), the code graph (from the index,
 * when there is one) and the docs. Declared nodes walk declared edges only, so a domain's hundred functions do not
 * crowd its neighbours out of a bundle (they are listed as code_symbols instead); a code node walks code edges and
 * the touches_code edges up to the declared nodes it belongs to.
 */
import { EngineError } from '../errors';
import type { DocView } from '../docs/doc-store';
import type { Neighbour, NeighbourFn } from './bfs';
import type { CodeRef, CodeView } from './code-view';
import { suggestIds } from './suggest';
import type { DeclaredGraph } from './types';

export interface Knowledge {
  graph: DeclaredGraph;
  /** Fingerprint of the graph YAML files. */
  fingerprint: string;
  code?: CodeView;
  docs: DocView;
  /** Why there is no code side, when there is none. */
  codeMissing?: string;
}

export interface NodeSummary {
  ref_id: string;
  kind: string;
  summary: string;
}

export type Resolved = { type: 'declared'; id: string } | CodeRef;

/** Resolves a requested ref_id: a declared node first, then a code file or symbol. Throws not_found with suggestions. */
export function resolveRef(k: Knowledge, id: string): Resolved {
  const wanted = id.trim();
  if (!wanted) throw new EngineError('required', 'a ref_id is required');
  if (k.graph.nodes.has(wanted)) return { type: 'declared', id: wanted };
  if (k.code) {
    const r = k.code.resolve(wanted);
    if (r && 'ambiguous' in r) {
      // `candidates` (every match) marks the name as ambiguous rather than unknown: an editor offers them as a choice.
      throw new EngineError('not_found', `"${wanted}" names ${r.ambiguous.length} code symbols; use one of the path::name forms`,
        { ref_id: wanted, suggestions: r.ambiguous.slice(0, 5), candidates: r.ambiguous });
    }
    if (r) return r;
  }
  const declared = suggestIds(wanted, k.graph.nodes.keys());
  const suggestions = declared.length ? declared : k.code ? suggestIds(wanted, k.code.candidates(wanted)) : [];
  throw new EngineError('not_found', `"${wanted}" is not a node of the graph${k.code ? ' or a file or symbol of the index' : ''}${suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''}`,
    { ref_id: wanted, suggestions });
}

export function describeNode(k: Knowledge, id: string): NodeSummary {
  const node = k.graph.nodes.get(id);
  if (node) return { ref_id: id, kind: node.kind, summary: node.summary };
  const ref = k.code?.ref(id);
  if (ref?.type === 'symbol') return { ref_id: id, kind: ref.kind, summary: ref.signature };
  if (ref?.type === 'file') return { ref_id: id, kind: 'file', summary: `${ref.language} file, ${ref.lines} lines` };
  return { ref_id: id, kind: '', summary: '' };
}

export function neighboursOf(k: Knowledge): NeighbourFn {
  return (id: string): Neighbour[] => {
    if (k.graph.nodes.has(id)) {
      const out: Neighbour[] = [];
      for (const e of k.graph.out.get(id) ?? []) out.push({ id: e.dst, edge: { src: e.src, dst: e.dst, kind: e.kind } });
      for (const e of k.graph.in.get(id) ?? []) out.push({ id: e.src, edge: { src: e.src, dst: e.dst, kind: e.kind } });
      return out;
    }
    const ref = k.code?.ref(id);
    return ref && k.code ? k.code.neighbours(k.graph, ref) : [];
  };
}

/** Neighbours in one direction only: `up` follows outgoing edges (what id needs), `down` incoming (what needs id). */
export function directedNeighbours(k: Knowledge, direction: 'up' | 'down'): NeighbourFn {
  const both = neighboursOf(k);
  return (id) => both(id).filter((n) => (direction === 'up' ? n.edge.src === id : n.edge.dst === id) && n.id !== id);
}

