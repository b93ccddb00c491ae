/** list_nodes: the declared nodes of the architecture graph, by kind; adapter over engine.graphView(). */
import { z } from 'zod/v4';
import { pageList, windowOf } from '../budget';
import { ARG_LIMITS, defineTool, pagedArgs, textArg } from '../tool';
import { NO_GRAPH_HINT, readGraph } from './graph-read';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);

export const listNodesTool = defineTool({
  name: 'list_nodes',
  title: 'List graph nodes',
  description: 'Nodes of the architecture graph (ref_id, kind, summary), optionally of one kind. About 25 tokens per node; paged.',
  input: z
    .object({
      kind: textArg(ARG_LIMITS.kind).optional().describe('Only this kind, e.g. domain, feature, service'),
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const view = await readGraph(ctx);
    const nodes = args.kind === undefined ? view.nodes : view.nodes.filter((n) => n.kind === args.kind);
    const kinds = [...new Set(view.nodes.map((n) => n.kind))].sort();
    const hint = !view.nodes.length ? NO_GRAPH_HINT : !nodes.length ? `no node of kind ${JSON.stringify(args.kind)}; kinds here: ${kinds.join(', ')}` : undefined;
    const page = pageList({
      tool: 'list_nodes',
      fingerprint: ctx.fingerprint,
      head: { ...(args.kind !== undefined ? { kind: args.kind } : {}), total: nodes.length, ...(hint ? { hint } : {}) },
      key: 'nodes',
      ...windowOf(nodes, offset, limit),
      maxTokens: args.max_tokens,
    });
    return { text: page.text, tokens: page.tokens, items: page.shown.map((n) => ({ ref: n.ref_id, kind: n.kind })) };
  },
});
