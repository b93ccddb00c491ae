/** What the graph tools share: reading the graph view the way the CLI's `graph` does, and the note for an empty graph. */
import type { GraphView } from '../../core';
import { ToolError } from '../errors';
import type { ToolContext } from '../tool';

/** Said when the workspace declares no graph at all. */
export const NO_GRAPH_HINT = 'no architecture graph here: declare nodes in .context-oracle/graph/*.yml (or beadloom\'s .beadloom/_graph/*.yml)';

/** The graph (or the part within `depth` of `refIds`); a graph file that cannot be read whole is an error, not a half graph. */
export async function readGraph(ctx: ToolContext, refIds: string[] = [], depth?: number): Promise<GraphView> {
  const view = await ctx.engine.graphView(refIds, depth !== undefined ? { depth } : {});
  if (view.unreadable.length) {
    throw new ToolError('invalid_input', `the graph could not be read: ${view.unreadable.slice(0, 5).map((i) => `${i.file}:${i.line}: ${i.message}`).join('; ')}; fix the file, then call again`);
  }
  return view;
}
