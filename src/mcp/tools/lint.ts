/** lint: graph, rules-file and rule findings, errors first, for the whole graph or one node or path; adapter over engine.lint(). */
import { z } from 'zod/v4';
import { EngineError, type Violation } from '../../core';
import { pageListWithHead, windowOf } from '../budget';
import { ToolError } from '../errors';
import { defineTool, pagedArgs, refIdArg, type ToolContext } from '../tool';
import { inScope } from './shapes';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);

export const lintTool = defineTool({
  name: 'lint',
  title: 'Architecture lint',
  description:
    'Architecture lint: graph and rules problems and rule violations (deny, require, cycles, layers, imports), errors ' +
    'first, for the whole graph or a scope. About 50 tokens per finding; paged.',
  input: z
    .object({
      scope: refIdArg('Node id, or workspace-relative file or folder').optional(),
      severity: z.enum(['error', 'warn']).optional().describe('Only this one'),
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const inside = args.scope === undefined ? () => true : await scopeFilter(args.scope, ctx);
    const report = await ctx.engine.lint();
    const found = report.violations.filter((v) => inside(v) && (!args.severity || v.severity === args.severity));
    const s = report.summary;
    const scope = args.scope !== undefined ? { scope: args.scope } : {};
    const page = pageListWithHead({
      tool: 'lint',
      fingerprint: ctx.fingerprint,
      key: 'findings',
      ...windowOf(found, offset, limit),
      maxTokens: args.max_tokens,
    }, [
      {
        ...scope,
        summary: { errors: s.errors, warnings: s.warnings, rules_evaluated: s.rules_evaluated, nodes: s.nodes, edges: s.edges, code_indexed: s.code_indexed },
        total: found.length,
        ...(s.graph_files.length ? {} : { hint: 'no architecture graph here, so nothing to lint' }),
      },
      { ...scope, total: found.length },
    ]);
    return { text: page.text, tokens: page.tokens };
  },
});

/**
 * A graph node id keeps the findings about that node (as source or target) or its source files; anything else must be a path in the
 * workspace (through the path guard) and keeps the findings in files under it. Neither is not_found with the node
 * ids closest to what was given.
 */
async function scopeFilter(scope: string, ctx: ToolContext): Promise<(v: Violation) => boolean> {
  try {
    const { node } = await ctx.engine.graphNode(scope);
    // Findings about the node itself, and about files in its source (module coverage, imports).
    const source = node.source?.replace(/\/+$/, '');
    return (v) => v.from === node.ref_id || v.to === node.ref_id || (!!source && v.file !== undefined && inScope(v.file, source));
  } catch (e) {
    if (!EngineError.is(e, 'not_found')) throw e;
    const path = await ctx.paths.resolve(scope, 'scope');
    if (!path.exists) {
      const suggestions = Array.isArray(e.detail?.suggestions) ? (e.detail.suggestions as unknown[]).map(String) : undefined;
      throw new ToolError('not_found', `\`scope\` ${JSON.stringify(scope.slice(0, 200))} is neither a graph node nor a path in the workspace`, suggestions);
    }
    return (v) => v.file !== undefined && inScope(v.file, path.rel);
  }
}
