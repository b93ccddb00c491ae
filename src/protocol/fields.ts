/**
 * The arguments the hosts take from outside, declared once: the language server's custom requests
 * (request-schemas.ts, camelCase: `maxTokens`, `refId`) and the MCP tools (src/mcp/tools, snake_case: `max_tokens`,
 * `ref_id`) build their schemas from these, so a question, a symbol, a node id, a budget, a limit or a depth is
 * checked the same way and a bad one gets the same words through either host. Each host keeps its own names and
 * ranges (MCP caps a budget at what agents accept); the check and its wording live here. Imports zod: only the
 * server and MCP bundles take this module, never the extension's (see request-schemas.ts).
 */
import { z } from 'zod/v4';

const count = (n: number): string => n.toLocaleString('en-US');

/** A string with something in it (a blank one is as good as missing), at most `max` characters when given. */
export function textField(max?: number): z.ZodString {
  const error = 'must be a non-empty string';
  const base = z.string({ error }).min(1, { error });
  const limited = max === undefined ? base : base.max(max, { error: `must be at most ${count(max)} characters` });
  return limited.refine((s) => s.trim().length > 0, { error });
}

/**
 * A whole number from `min` (to `max` when given): a limit, a depth, a token budget. The words name the fault, not
 * the host's range, unless the range is the fault: 2.5 or "ten" is "must be a whole number" everywhere.
 */
export function wholeNumberField(min: number, max?: number): z.ZodNumber {
  const error = 'must be a whole number';
  const base = z.number({ error }).int({ error }).min(min, { error: `must be at least ${count(min)}` });
  return max === undefined ? base : base.max(max, { error: `must be at most ${count(max)}` });
}

/** A question in plain words. */
export const questionField = textField;
/** A symbol name, plain or qualified (`Container.name`). */
export const symbolField = textField;
/** A graph node id, a workspace-relative file, or a `path::Qualified.name` symbol. */
export const refIdField = textField;

/** A token budget: the most tokens an answer may take. */
export function budgetField(min = 1, max?: number): z.ZodNumber {
  return wholeNumberField(min, max);
}

/** How many items at most. */
export function limitField(max?: number): z.ZodNumber {
  return wholeNumberField(1, max);
}

/** Graph hops or levels, from `min` (0: the nodes themselves). */
export function depthField(min: number, max?: number): z.ZodNumber {
  return wholeNumberField(min, max);
}

/** A list of strings. */
export const stringsField = (): z.ZodArray<z.ZodString> => z.array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of strings' });
/** true or false. */
export const flagField = (): z.ZodBoolean => z.boolean({ error: 'must be true or false' });
/** Any string, empty included (an optional filter, a document's text). */
export const anyTextField = (): z.ZodString => z.string({ error: 'must be a string' });
