/**
 * The parameters of the language server's custom requests as zod schemas (as the MCP tools declare theirs), one per
 * request that takes any, next to the request map they must agree with (checked below by the compiler). The server
 * checks every request against them before a handler runs (src/server/checked-params.ts): the webview's questions
 * and any other client's params are not trusted. A separate module from language-server.ts so that the extension
 * bundle, which imports that one for method names, does not carry zod.
 */
import { z } from 'zod/v4';
import {
  anyTextField, budgetField, depthField, flagField, limitField, questionField, refIdField, stringsField, symbolField, textField,
  wholeNumberField,
} from './fields';
import type { OracleRequestMethod, OracleRequests } from './language-server';

const strings = stringsField();
const flag = flagField();
const optionalText = anyTextField();
/** The editor's budgets come from settings: any whole number of tokens (MCP's cap is for agents, not here). */
const maxTokens = budgetField();
const limit = limitField();
/** Hops around a node: at least one, as these requests have always taken. */
const depth = depthField(1);

const symbolParams = z.object({ symbol: symbolField(), limit: limit.optional() });

export const REQUEST_SCHEMAS = {
  'contextOracle/index': z.object({ full: flag.optional() }),
  'contextOracle/search': z.object({ query: textField(), kind: optionalText.optional(), limit: limit.optional() }),
  'contextOracle/ask': z.object({
    id: textField(), question: questionField(), explain: flag.optional(), session: optionalText.optional(), sources: strings.optional(),
    maxTokens: maxTokens.optional(),
  }),
  'contextOracle/conversation': z.object({ session: textField() }),
  'contextOracle/definitions': symbolParams,
  'contextOracle/references': symbolParams,
  'contextOracle/implementations': symbolParams,
  'contextOracle/repoMap': z.object({
    maxTokens: maxTokens.optional(), scope: optionalText.optional(), mentionedFiles: strings.optional(), mentionedIdents: strings.optional(),
  }),
  'contextOracle/bundle': z.object({ refIds: strings, maxTokens: maxTokens.optional(), depth: depth.optional() }),
  'contextOracle/why': z.object({ refId: refIdField(), depth: depth.optional(), reverse: flag.optional() }),
  'contextOracle/graphView': z.object({ refIds: strings.optional(), depth: depth.optional() }),
  'contextOracle/docSync': z.object({ check: flag.optional(), mark: strings.optional() }),
  'contextOracle/context': z.object({
    question: questionField(), maxTokens: maxTokens.optional(),
    format: z.enum(['mu', 'json', 'markdown'], { error: 'must be mu, json or markdown' }).optional(),
  }),
  'contextOracle/refIds': z.object({ query: optionalText.optional(), limit: limit.optional() }),
  'contextOracle/symbolAt': z.object({ path: textField(), line: wholeNumberField(1) }),
  'contextOracle/fileInsights': z.object({ path: textField(), text: optionalText }),
} satisfies { [M in OracleRequestMethod]?: z.ZodType<OracleRequests[M]['params']> };

export type CheckedRequest = keyof typeof REQUEST_SCHEMAS;
