/** find_references: where a symbol is used, nearest importers first; adapter over engine.references(). */
import { z } from 'zod/v4';
import { symbolField } from '../../protocol/fields';
import { pageList } from '../budget';
import { ARG_LIMITS, defineTool, pagedArgs, pathFilterArg, scopeOf } from '../tool';
import { definitionItem, definitionRef, inScope, referenceItem } from './shapes';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);
const ALL = 10_000;

export const findReferencesTool = defineTool({
  name: 'find_references',
  title: 'Find references',
  description:
    'Where a symbol is used (calls, types, imports, implementations), nearest first: path, line, kind, enclosing ' +
    'symbol, source line. other_definitions flags an ambiguous name. About 45 tokens each; paged.',
  input: z
    .object({
      symbol: symbolField(ARG_LIMITS.symbol).describe('Plain or qualified name'),
      path: pathFilterArg,
      include_definition: z.boolean().optional().describe('List the definition first'),
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const scope = await scopeOf(args.path, ctx);
    const result = await ctx.engine.references(args.symbol, {
      limit: scope ? ALL : offset + limit + 1,
      ...(args.include_definition ? { includeDefinition: true } : {}),
      signal: ctx.signal,
    });
    const matching = result.results.filter((r) => inScope(r.path, scope));
    const total = scope ? matching.length : result.total;
    const head = {
      query: result.query,
      definition: definitionItem(result.definition),
      ...(result.otherDefinitions ? { other_definitions: result.otherDefinitions, hint: 'the name has other definitions whose references are not listed; qualify it (e.g. Container.name) or call find_definition to see them' } : {}),
      ...(scope ? { path: scope } : {}),
      total,
      source: result.source,
    };
    const page = pageList({
      tool: 'find_references',
      fingerprint: ctx.fingerprint,
      head,
      key: 'results',
      items: matching.slice(offset, offset + limit).map(referenceItem),
      offset,
      moreAfter: matching.length > offset + limit || (!scope && result.total > offset + limit),
      total,
      maxTokens: args.max_tokens,
    });
    return {
      text: page.text,
      tokens: page.tokens,
      items: [definitionRef(result.definition), ...page.shown.map((r) => ({ ref: `${r.path}:${r.line}`, path: r.path, line: r.line, kind: r.kind, ...(r.in ? { symbol: r.in } : {}) }))],
    };
  },
});
