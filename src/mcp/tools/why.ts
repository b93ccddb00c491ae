/** why: impact analysis of a graph node, file or symbol; adapter over engine.why(). */
import { z } from 'zod/v4';
import { countTokens } from '../../core';
import { depthField, limitField } from '../../protocol/fields';
import { clampBudget, contentBudget, fitObject } from '../budget';
import type { SessionItem } from '../session';
import { defineTool, maxTokensArg, refIdArg } from '../tool';

const DEFAULT_BUDGET = 4_000;
const DEFAULT_MAX_NODES = 50;

interface TreeNode {
  ref_id: string;
  kind: string;
  children: TreeNode[];
}

export const whyTool = defineTool({
  name: 'why',
  title: 'Why / impact',
  description:
    'Impact analysis: upstream (what it depends on) and downstream (what depends on it) trees over the graph and code, ' +
    'with dependant counts, doc coverage, stale docs. About 20 tokens per node (default 4,000).',
  input: z
    .object({
      ref_id: refIdArg(),
      depth: depthField(1, 10).optional().describe('Levels per direction (default 3)'),
      max_nodes: limitField(500).optional().describe(`Per direction (default ${DEFAULT_MAX_NODES})`),
      reverse: z.boolean().optional().describe('Emphasise upstream'),
      max_tokens: maxTokensArg(DEFAULT_BUDGET),
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const asked = clampBudget(args.max_tokens ?? DEFAULT_BUDGET);
    const budget = contentBudget(asked);
    let maxNodes = args.max_nodes ?? DEFAULT_MAX_NODES;
    for (;;) {
      const result = await ctx.engine.why(args.ref_id, {
        maxNodes,
        ...(args.depth !== undefined ? { depth: args.depth } : {}),
        ...(args.reverse ? { reverse: true } : {}),
      });
      const lowered = maxNodes !== (args.max_nodes ?? DEFAULT_MAX_NODES);
      const body = { ...result, ...(lowered ? { note: `max_nodes lowered to ${maxNodes} to fit max_tokens=${asked}; raise max_tokens for the whole trees` } : {}) };
      const text = JSON.stringify(body);
      const items: SessionItem[] = [result.node, ...flatten(result.upstream), ...flatten(result.downstream)].map((n) => ({ ref: n.ref_id, kind: n.kind }));
      if (countTokens(text) <= budget) return { text, tokens: countTokens(text), items };
      if (maxNodes === 1) return { ...fitObject(body, asked), items };
      maxNodes = Math.max(1, Math.floor(maxNodes / 2));
    }
  },
});

function flatten(trees: readonly TreeNode[]): TreeNode[] {
  return trees.flatMap((t) => [t, ...flatten(t.children)]);
}
