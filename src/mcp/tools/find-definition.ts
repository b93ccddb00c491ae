/** find_definition: where a symbol is defined; adapter over engine.definitions(). */
import { z } from 'zod/v4';
import { symbolField } from '../../protocol/fields';
import { pageList } from '../budget';
import { ToolError } from '../errors';
import { ARG_LIMITS, defineTool, pagedArgs, pathFilterArg, scopeOf } from '../tool';
import { definitionItem, definitionRef, inScope } from './shapes';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);
/** Every definition of a name, when a path filter must see them all. */
const ALL = 10_000;

export const findDefinitionTool = defineTool({
  name: 'find_definition',
  title: 'Find definition',
  description:
    'Where a symbol is defined, from a name, qualified name ("HttpServer.listen") or module path; canonical first, with ' +
    'kind, path, lines and signature. An unknown name is not_found with the closest. About 60 tokens each.',
  input: z
    .object({
      symbol: symbolField(ARG_LIMITS.symbol).describe('Plain or qualified name'),
      path: pathFilterArg,
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const scope = await scopeOf(args.path, ctx);
    const result = await ctx.engine.definitions(args.symbol, { limit: scope ? ALL : offset + limit + 1, signal: ctx.signal });
    const matching = result.results.filter((h) => inScope(h.path, scope));
    if (!matching.length) {
      throw new ToolError('not_found', `"${args.symbol}" is defined, but not under "${scope}"; drop \`path\` or use one of the suggested files`, [...new Set(result.results.map((h) => h.path))].slice(0, 5));
    }
    const page = pageList({
      tool: 'find_definition',
      fingerprint: ctx.fingerprint,
      head: { query: result.query, ...(scope ? { path: scope } : {}) },
      key: 'results',
      items: matching.slice(offset, offset + limit).map(definitionItem),
      offset,
      moreAfter: matching.length > offset + limit,
      ...(scope ? { total: matching.length } : {}),
      maxTokens: args.max_tokens,
    });
    return { text: page.text, tokens: page.tokens, items: page.shown.map(definitionRef) };
  },
});
