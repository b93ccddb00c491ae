/**
 * The parameters of the language server's custom requests as zod schemas (as the MCP tools declare theirs), one per
 * request that takes any, next to the request map they must agree with (checked below by the compiler). The server
 * checks every request against them before a handler runs (src/server/checked-params.ts): the webview's questions
 * and any other client's params are not trusted. A separate module from language-server.ts so that the extension
 * bundle, which imports that one for method names, does not carry zod.
 */
import { z } from 'zod/v4';
import type { OracleRequestMethod, OracleRequests } from './language-server';

/** A string with something in it: a blank one is as good as missing. */
const nonEmpty = z.string({ error: 'must be a non-empty string' }).refine((s) => s.trim().length > 0, { error: 'must be a non-empty string' });
/** A count, a budget or a depth. */
const positive = z.number({ error: 'must be a positive number' }).finite({ error: 'must be a positive number' }).positive({ error: 'must be a positive number' });
const strings = z.array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of strings' });
const flag = z.boolean({ error: 'must be true or false' });
const optionalText = z.string({ error: 'must be a string' });

const symbolParams = z.object({ symbol: nonEmpty, limit: positive.optional() });

export const REQUEST_SCHEMAS = {
  'contextOracle/index': z.object({ full: flag.optional() }),
  'contextOracle/search': z.object({ query: nonEmpty, kind: optionalText.optional(), limit: positive.optional() }),
  'contextOracle/ask': z.object({
    id: nonEmpty, question: nonEmpty, explain: flag.optional(), session: optionalText.optional(), sources: strings.optional(),
    maxTokens: positive.optional(),
  }),
  'contextOracle/conversation': z.object({ session: nonEmpty }),
  'contextOracle/definitions': symbolParams,
  'contextOracle/references': symbolParams,
  'contextOracle/implementations': symbolParams,
  'contextOracle/repoMap': z.object({
    maxTokens: positive.optional(), scope: optionalText.optional(), mentionedFiles: strings.optional(), mentionedIdents: strings.optional(),
  }),
  'contextOracle/bundle': z.object({ refIds: strings, maxTokens: positive.optional(), depth: positive.optional() }),
  'contextOracle/why': z.object({ refId: nonEmpty, depth: positive.optional(), reverse: flag.optional() }),
  'contextOracle/graphView': z.object({ refIds: strings.optional(), depth: positive.optional() }),
  'contextOracle/docSync': z.object({ check: flag.optional(), mark: strings.optional() }),
  'contextOracle/context': z.object({
    question: nonEmpty, maxTokens: positive.optional(),
    format: z.enum(['mu', 'json', 'markdown'], { error: 'must be mu, json or markdown' }).optional(),
  }),
  'contextOracle/refIds': z.object({ query: optionalText.optional(), limit: positive.optional() }),
  'contextOracle/symbolAt': z.object({ path: nonEmpty, line: positive }),
  'contextOracle/fileInsights': z.object({ path: nonEmpty, text: optionalText }),
} satisfies { [M in OracleRequestMethod]?: z.ZodType<OracleRequests[M]['params']> };

export type CheckedRequest = keyof typeof REQUEST_SCHEMAS;
