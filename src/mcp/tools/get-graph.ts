/**
 * get_graph: the architecture graph, or the part around some nodes, as paged JSON or a Mermaid diagram; adapter over
 * engine.graphView(). JSON lists each node with its outgoing edges, so a page is whole on its own and every edge is
 * on exactly one page. Mermaid cannot be paged (half a diagram is another diagram): it is cut to whole lines instead.
 */
import { z } from 'zod/v4';
import { countTokens, type GraphView } from '../../core';
import { depthField, refIdField } from '../../protocol/fields';
import { clampBudget, contentBudget, pageList, windowOf } from '../budget';
import { ARG_LIMITS, defineTool, pagedArgs, type ToolAnswer } from '../tool';
import { NO_GRAPH_HINT, readGraph } from './graph-read';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);

export const getGraphTool = defineTool({
  name: 'get_graph',
  title: 'Architecture graph',
  description:
    'The architecture graph, or the part within depth hops of ref_ids: JSON (each node with its outgoing edges, paged) ' +
    'or a Mermaid diagram. About 30 tokens per node.',
  input: z
    .object({
      ref_ids: z.array(refIdField(ARG_LIMITS.path)).min(1).max(20).optional().describe('Centre on these (default: whole graph)'),
      depth: depthField(0, 5).optional().describe('Hops around ref_ids (default 2)'),
      format: z.enum(['json', 'mermaid']).optional().describe('Default json'),
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const view = await readGraph(ctx, args.ref_ids, args.depth);
    const head = { nodes_total: view.nodes.length, edges_total: view.edges.length, ...(view.nodes.length ? {} : { hint: NO_GRAPH_HINT }) };
    if (args.format === 'mermaid') return mermaid(view, head, args.max_tokens);
    const out = new Map<string, Array<{ dst: string; kind: string }>>();
    for (const e of view.edges) out.set(e.src, [...(out.get(e.src) ?? []), { dst: e.dst, kind: e.kind }]);
    const nodes = view.nodes.map((n) => ({ ...n, out: out.get(n.ref_id) ?? [] }));
    const page = pageList({
      tool: 'get_graph',
      fingerprint: ctx.fingerprint,
      head,
      key: 'nodes',
      ...windowOf(nodes, offset, limit),
      maxTokens: args.max_tokens,
    });
    return { text: page.text, tokens: page.tokens, items: page.shown.map((n) => ({ ref: n.ref_id, kind: n.kind })) };
  },
});

/** The diagram as a raw block after a small JSON header; cut after the most whole lines that fit. */
function mermaid(view: GraphView, head: Record<string, unknown>, maxTokens: number | undefined): ToolAnswer {
  const budget = contentBudget(maxTokens);
  const lines = view.mermaid.split('\n');
  const answer = (kept: number): ToolAnswer => {
    const cut = kept < lines.length;
    const text = JSON.stringify({
      ...head,
      ...(cut ? { truncated: `the diagram was cut after ${kept} of ${lines.length} lines to fit max_tokens=${clampBudget(maxTokens)}; raise it, narrow ref_ids or depth, or use format json (paged)` } : {}),
    });
    const block = lines.slice(0, kept).join('\n');
    return { text, blocks: [block], tokens: countTokens(text) + countTokens(block), items: view.nodes.map((n) => ({ ref: n.ref_id, kind: n.kind })) };
  };
  const whole = answer(lines.length);
  if (whole.tokens <= budget) return whole;
  // The most lines that fit, by bisection (the first line, `graph LR`, always fits beside the header).
  let lo = 1;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (answer(mid).tokens <= budget) lo = mid;
    else hi = mid - 1;
  }
  return answer(lo);
}
