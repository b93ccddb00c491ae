/** search_code: ranked code chunks for words or identifiers; adapter over engine.search(). */
import { z } from 'zod/v4';
import { SYMBOL_KINDS } from '../../core';
import { pageList } from '../budget';
import { ARG_LIMITS, defineTool, pagedArgs, pathFilterArg, scopeOf, textArg } from '../tool';
import { inScope } from './shapes';

const KINDS = [...SYMBOL_KINDS, 'file'] as const;

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);
/** The engine ranks at most this many; a path filter is applied to them. */
const ENGINE_MAX = 500;

export const searchCodeTool = defineTool({
  name: 'search_code',
  title: 'Search code',
  description:
    'Identifier-aware BM25 full-text search over the code, exact symbol names first: path, lines, symbol, kind, ' +
    'signature, snippet. About 80 tokens per result; paged.',
  input: z
    .object({
      query: textArg(ARG_LIMITS.query).describe('Words or identifiers'),
      kind: z.enum(KINDS).optional().describe('"file" = code outside definitions'),
      path: pathFilterArg,
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const scope = await scopeOf(args.path, ctx);
    // One more than the page needs tells whether another page exists.
    const want = scope ? ENGINE_MAX : Math.min(offset + limit + 1, ENGINE_MAX);
    const hits = await ctx.engine.search(args.query, { ...(args.kind ? { kind: args.kind } : {}), limit: want });
    const matching = hits.filter((h) => inScope(h.path, scope));
    const page = pageList({
      tool: 'search_code',
      fingerprint: ctx.fingerprint,
      head: {
        query: args.query,
        ...(scope ? { path: scope } : {}),
        ...(matching.length === 0 && offset === 0 ? { hint: 'no match: try other words, a shorter identifier, or no kind/path filter' } : {}),
      },
      key: 'results',
      items: matching.slice(offset, offset + limit),
      offset,
      moreAfter: matching.length > offset + limit,
      maxTokens: args.max_tokens,
    });
    return {
      text: page.text,
      tokens: page.tokens,
      items: page.shown.map((h) => ({ ref: `${h.path}:${h.line}`, path: h.path, line: h.line, ...(h.symbol ? { symbol: h.symbol } : {}), kind: h.kind })),
    };
  },
});
