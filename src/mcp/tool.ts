/**
 * What a tool is: a name, a description written for the model (what it returns, when to use it, what it costs), a
 * small input schema, and a thin adapter over one engine method. The server does the rest: argument checks with
 * actionable errors, waiting for the index, budgets, session recording.
 */
import { z } from 'zod/v4';
import type { EmbeddingSettings, Engine } from '../core';
import { budgetField, limitField, refIdField, textField } from '../protocol/fields';
import { DEFAULT_MAX_TOKENS, HARD_CAP_TOKENS, MIN_MAX_TOKENS } from './budget';
import { decodeCursor } from './cursor';
import { quoteInput, ToolError } from './errors';
import type { IndexGate } from './index-gate';
import type { PathGuard } from './path-guard';
import type { ProgressReporter } from './progress';
import type { McpSession, SessionItem } from './session';

export interface ToolContext {
  /** The tool's name (for cursors and messages). */
  tool: string;
  engine: Engine;
  paths: PathGuard;
  session: McpSession;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Identifies the list this call pages through (see cursor.ts). */
  fingerprint: string;
  /** What the background indexing is doing. */
  index: Pick<IndexGate, 'activity' | 'describeRun'>;
  /** Settings the server was started with that tools pass on to the engine. */
  settings: ToolSettings;
  /** Progress notifications for this request, when the client asked for them. */
  progress?: ProgressReporter;
  /** The client's name from the MCP handshake (e.g. "claude-code"), to attribute logged answers. */
  client?: string;
}

export interface ToolSettings {
  /** Embeddings endpoint for smart context's vector path; absent = lexical and graph paths only. */
  embeddings?: EmbeddingSettings;
}

export interface ToolAnswer {
  /** The JSON text sent back (already within the budget). */
  text: string;
  /** Raw text blocks sent after the JSON (a rendered map reads better unescaped); counted in `tokens`. */
  blocks?: string[];
  /** Tokens of everything sent. */
  tokens: number;
  /** What to remember in the session. */
  items?: SessionItem[];
}

export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Wait for a fresh index before running (everything but index_status). */
  needsIndex: boolean;
  /** MCP behaviour hints; default read-only and closed-world (only the workspace and its index). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** Identity helper that keeps the schema's type for `run`'s arguments. */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}

/**
 * `max_tokens`, taken by every tool. Descriptions of the shared arguments are kept to a few words: tools/list is paid
 * on every turn of every agent, and what budgets and cursors do is said once, in the server's instructions.
 */
export function maxTokensArg(defaultTokens = DEFAULT_MAX_TOKENS): z.ZodOptional<z.ZodNumber> {
  const arg = budgetField(MIN_MAX_TOKENS, HARD_CAP_TOKENS).optional();
  return defaultTokens === DEFAULT_MAX_TOKENS ? arg : arg.describe(`Default ${defaultTokens}`);
}

/** `limit` for list tools. */
export function limitArg(defaultLimit: number, max: number): z.ZodOptional<z.ZodNumber> {
  return limitField(max).optional().describe(`Default ${defaultLimit}`);
}

/**
 * Longest string arguments accepted, in characters. A call over a limit is refused at once with invalid_input naming
 * the argument and the limit, before any work: tokenizing, searching or echoing a 10 MB question would hold up every
 * other call. tools/list shows each limit as the argument's maxLength.
 */
export const ARG_LIMITS = {
  /** search_code `query`, get_repo_map `focus`: words and identifiers (a 150-word query is ~1,000). */
  query: 2_000,
  /** get_context `question`: room for a pasted error message or stack trace (ask_oracle takes the oracle's 4,000). */
  question: 8_000,
  /** find_definition and find_references `symbol`. */
  symbol: 1_000,
  /** Workspace-relative paths (`path`, `scope`), graph ids and `path::Symbol` refs (`ref_id`, `ref_ids`); PATH_MAX. */
  path: 4_096,
  /** `cursor`: what next_cursor holds is under 100. */
  cursor: 512,
  /** get_context `etag`: a bundle's is "sha256:" and 16 hex digits. */
  etag: 100,
  /** list_nodes `kind`: a node kind. */
  kind: 100,
} as const;

/** A string argument of 1 to `max` characters, not blank. */
export function textArg(max: number): z.ZodString {
  return textField(max);
}

/** The `path` filter of the navigation and search tools. */
export const pathFilterArg = z.string().max(ARG_LIMITS.path).optional().describe('Workspace-relative file or folder');

/**
 * The workspace-relative scope a `path` filter names ('' without one: the whole workspace). A path outside the
 * workspace or missing on disk is refused by the guard, before any search.
 */
export async function scopeOf(path: string | undefined, ctx: Pick<ToolContext, 'paths'>): Promise<string> {
  return path === undefined ? '' : (await ctx.paths.resolveExisting(path, 'path')).rel;
}

/** `cursor` for list tools. */
export const cursorArg = z.string().max(ARG_LIMITS.cursor).optional();

/**
 * The paging arguments every list tool takes (`limit`, `cursor`, `max_tokens`, spread last into its input schema as
 * `...paged.args`) and the page a call asks for (`paged.page(args, ctx)`: the first index and the page length).
 */
export function pagedArgs(defaultLimit: number, maxLimit: number) {
  return {
    args: { limit: limitArg(defaultLimit, maxLimit), cursor: cursorArg, max_tokens: maxTokensArg() },
    page(args: { limit?: number | undefined; cursor?: string | undefined }, ctx: ToolContext): { offset: number; limit: number } {
      return { offset: decodeCursor(args.cursor, ctx.fingerprint, ctx.tool).offset, limit: args.limit ?? defaultLimit };
    },
  };
}

/** A graph node id, a workspace-relative file, or a `path::Qualified.name` symbol. */
export function refIdArg(what = 'Graph node id, file, or "path::Qualified.name"'): z.ZodString {
  return refIdField(ARG_LIMITS.path).describe(what);
}

/** Validates arguments; a missing argument is `required`, anything else wrong is `invalid_input`, named precisely. */
export function parseArgs<S extends z.ZodObject>(tool: ToolSpec<S>, raw: unknown): z.output<S> {
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    throw new ToolError('invalid_input', `${tool.name}: \`arguments\` must be a JSON object of named arguments, not ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}`);
  }
  const args = (raw ?? {}) as Record<string, unknown>;
  const parsed = tool.input.safeParse(args);
  if (parsed.success) return parsed.data;
  const accepted = Object.keys(tool.input.shape);
  const issue = parsed.error.issues[0]!;
  const name = issue.path.length ? String(issue.path[0]) : undefined;
  const given = name !== undefined && Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
  if (name && issue.code === 'invalid_type' && given === undefined) {
    const described = (tool.input.shape[name] as z.ZodType | undefined)?.description;
    throw new ToolError('required', `${tool.name} needs \`${name}\`${described ? ` (${lowerFirst(described)})` : ''}`);
  }
  if (issue.code === 'unrecognized_keys') {
    const shown = issue.keys.slice(0, 5).map((k) => (k.length > 40 ? quoteInput(k, 40) : `\`${k}\``));
    const more = issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : '';
    throw new ToolError('invalid_input', `${tool.name} does not take ${shown.join(', ')}${more}; it takes ${accepted.map((k) => `\`${k}\``).join(', ')}`, accepted);
  }
  const where = issue.path.length ? `\`${issue.path.map((p) => quoteKey(String(p))).join('.')}\`` : 'the arguments';
  if (issue.code === 'too_big') {
    const value = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), args);
    const limit = Number(issue.maximum).toLocaleString('en-US');
    if (typeof value === 'string') {
      throw new ToolError('invalid_input', `${tool.name}: ${where} is ${value.length.toLocaleString('en-US')} characters; the limit is ${limit}. Shorten it: the tools look up words and identifiers, not whole files`);
    }
    if (Array.isArray(value)) throw new ToolError('invalid_input', `${tool.name}: ${where} has ${value.length.toLocaleString('en-US')} items; the limit is ${limit}`);
  }
  // A blank string is as good as missing, as the language server counts it too (src/server/checked-params.ts).
  const blank = typeof given === 'string' && !given.trim();
  throw new ToolError(blank ? 'required' : 'invalid_input', `${tool.name}: ${where}: ${issue.message}`);
}

/** An argument name as an error quotes it: short names whole, long ones cut. */
function quoteKey(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

function lowerFirst(s: string): string {
  return s ? s[0]!.toLowerCase() + s.slice(1) : s;
}

/** The JSON Schema a client sees: inputs as the caller writes them, without the `$schema` line. */
export function inputJsonSchema(tool: ToolSpec): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
