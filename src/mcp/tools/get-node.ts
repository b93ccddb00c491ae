/** get_node: one declared graph node with its edges; adapter over engine.graphNode(). */
import { z } from 'zod/v4';
import { fitObject } from '../budget';
import { defineTool, maxTokensArg, refIdArg } from '../tool';

export const getNodeTool = defineTool({
  name: 'get_node',
  title: 'Graph node',
  description: 'One architecture-graph node as declared (kind, summary, source, docs, tags, other fields) with its edges out and in. About 150 tokens.',
  input: z.object({ ref_id: refIdArg('Graph node id (see list_nodes)'), max_tokens: maxTokensArg() }).strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { node, out, in: incoming } = await ctx.engine.graphNode(args.ref_id);
    const { extra, ...declared } = node;
    const body = {
      ...declared,
      ...extra,
      out: out.map((e) => ({ dst: e.dst, kind: e.kind, ...(e.lifecycle ? { lifecycle: e.lifecycle } : {}) })),
      in: incoming.map((e) => ({ src: e.src, kind: e.kind, ...(e.lifecycle ? { lifecycle: e.lifecycle } : {}) })),
    };
    return { ...fitObject(body, args.max_tokens), items: [{ ref: node.ref_id, kind: node.kind }] };
  },
});
