/**
 * The MCP server over one engine: tools/list and tools/call, argument checks, waiting for the index, budgets and the
 * session record. Built on the SDK's low-level `Server` rather than `McpServer`, because McpServer answers a bad or
 * missing argument with its own plain-text message before our code runs; here every failure is our JSON error body.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { distance } from 'fastest-levenshtein';
import { type Engine, ENGINE_VERSION, EngineError, type Logger } from '../core';
import { clampBudget, HARD_CAP_TOKENS } from './budget';
import { argsFingerprint } from './cursor';
import { errorResult, quoteInput, ToolError, toolErrorFrom } from './errors';
import { OVERSIZE, RAW_ARGUMENTS, type Oversize } from './inbound';
import { IndexGate } from './index-gate';
import { createPathGuard } from './path-guard';
import { progressReporter } from './progress';
import { oracleMemory } from './oracle-memory';
import { McpSession } from './session';
import { stampAnswer } from './stamp';
import { inputJsonSchema, parseArgs, type ToolContext, type ToolSettings, type ToolSpec } from './tool';
import { TOOLS } from './tools';

export interface OracleMcpOptions {
  engine: Engine;
  logger: Logger;
  /** Build or refresh the index in the background when needed (default true). */
  autoIndex?: boolean;
  /**
   * Without a workspace watcher, a query this long after the last index run starts an incremental run in the
   * background (default 30 s); it never waits for it.
   */
  refreshIntervalMs?: number;
  /** Longest a query waits for indexing before answering from what there is (default 45 s). */
  maxWaitMs?: number;
  /** The tools served (default: all of TOOLS). */
  tools?: readonly ToolSpec[];
  /** Passed on to tools (e.g. the embeddings endpoint for get_context). */
  settings?: ToolSettings;
  /** The session's conversation id; the same id after a restart goes on with the conversation (default: a new one). */
  conversation?: string;
}

export interface OracleMcpServer {
  server: Server;
  session: McpSession;
  gate: IndexGate;
  /** Stops background indexing (the engine is the caller's to dispose). */
  dispose(): Promise<void>;
}

const INSTRUCTIONS =
  'Context Oracle answers questions about the code of this workspace from a tree-sitter index that it keeps up to ' +
  'date itself. Prefer it to reading whole files: results are exact locations (workspace-relative paths, 1-based ' +
  'lines) within a token budget: every tool takes max_tokens (default 8000 unless its schema says otherwise), and ' +
  'what does not fit is left out, as the answer says. Lists take limit (per page) and are paged: pass next_cursor ' +
  'back as cursor, other arguments unchanged, for the next page. Errors are JSON ' +
  '{code, message, suggestions} saying what to change. Answers end with `freshness`: files changed on disk but not ' +
  'indexed yet are `queued`; naming such a file (or its file name) in a query indexes it before the answer.';

export function createOracleMcpServer(options: OracleMcpOptions): OracleMcpServer {
  const { engine, logger } = options;
  const autoIndex = options.autoIndex ?? true;
  const tools = options.tools ?? TOOLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const gate = new IndexGate(engine, logger, {
    autoIndex,
    refreshIntervalMs: options.refreshIntervalMs ?? 30_000,
    maxWaitMs: options.maxWaitMs ?? 45_000,
  });
  const session = new McpSession(undefined, options.conversation);
  // The session's calls feed the oracle's conversation memory, so ask_oracle builds on what the other tools found.
  session.memory = oracleMemory(engine, session.id);
  const paths = createPathGuard(engine.root);
  const server = new Server({ name: 'context-oracle', version: ENGINE_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });

  const listed = listTools(tools);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const seq = session.nextSeq();
    const started = Date.now();
    const name = request.params.name;
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const given: unknown = meta && RAW_ARGUMENTS in meta ? meta[RAW_ARGUMENTS] : request.params.arguments;
    let args = (given ?? {}) as Record<string, unknown>;
    try {
      const tool = byName.get(name);
      if (!tool) throw new ToolError('not_found', `there is no tool ${quoteInput(name)}; this server has ${[...byName.keys()].join(', ')}`, closest(name, [...byName.keys()]));
      if (meta?.[OVERSIZE]) throw oversizeError(tool, meta[OVERSIZE] as Oversize);
      args = parseArgs(tool, given) as Record<string, unknown>;
      const progress = progressReporter({ progressToken: extra._meta?.progressToken, send: (n) => extra.sendNotification(n) });
      if (tool.needsIndex) await gate.ready(progress && ((p) => progress.index(p)), extra.signal);
      if (extra.signal.aborted) throw new ToolError('cancelled', 'the request was cancelled');
      const client = server.getClientVersion()?.name;
      const ctx: ToolContext = {
        tool: name, engine, paths, session, signal: extra.signal, fingerprint: argsFingerprint(name, args), index: gate, settings: options.settings ?? {},
        ...(progress ? { progress } : {}), ...(client ? { client } : {}),
      };
      const raw = await tool.run(args, ctx);
      // After the run: a just-in-time commit during the call has taken its files off the queue.
      const answer = tool.needsIndex ? stampAnswer(raw, await engine.freshness()) : raw;
      // Every tool fits the budget asked for (the stamp included); this only catches a tool that does not.
      const cap = typeof args.max_tokens === 'number' ? clampBudget(args.max_tokens) : HARD_CAP_TOKENS;
      if (answer.tokens > cap) throw new ToolError('internal', `${name} produced ${answer.tokens} tokens, over max_tokens=${cap}; call it with a smaller limit`);
      session.record({ seq, tool: name, args, at: new Date().toISOString(), ok: true, tokens: answer.tokens }, answer.items);
      logger.debug(`${name} #${seq}: ${answer.tokens} tokens in ${Date.now() - started} ms`);
      return { content: [answer.text, ...(answer.blocks ?? [])].map((text) => ({ type: 'text' as const, text })) };
    } catch (e) {
      // Deleted or damaged from outside since it was last seen: the next call looks again (and rebuilds it).
      if (EngineError.is(e, 'not_initialized') || EngineError.is(e, 'index_corrupt')) gate.indexLost();
      const error = toolErrorFrom(e, { running: gate.describeRun(), failed: gate.activity().lastError, autoIndex, root: engine.root });
      if (error.code === 'internal') logger.error(`${name} #${seq} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      else logger.debug(`${name} #${seq}: ${error.code}: ${error.message}`);
      // Arguments of a refused call are kept cut short: the session holds 500 calls, not 500 copies of a 10 MB question.
      session.record({ seq, tool: name, args: clippedArgs(args), at: new Date().toISOString(), ok: false, error: error.code, tokens: 0 });
      return errorResult(error);
    }
  });

  return {
    server,
    session,
    gate,
    dispose: () => gate.dispose(),
  };
}

/**
 * The tools as tools/list shows them. Every agent pays for this JSON on every turn, so nothing is said twice: the
 * title is not repeated in the annotations, and shared arguments are explained once in INSTRUCTIONS.
 */
export function listTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputJsonSchema(t) as Tool['inputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: false, ...t.annotations },
  }));
}

function closest(name: string, names: string[]): string[] {
  return [...names].sort((a, b) => distance(name, a) - distance(name, b)).slice(0, 3);
}

/** `args` with every string over 200 characters cut, for the record of a failed call. */
function clippedArgs(args: unknown): Record<string, unknown> {
  try {
    const json = JSON.stringify(args ?? {}, (_k, v: unknown) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v));
    const parsed = JSON.parse(json) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { arguments: parsed };
  } catch {
    return {};
  }
}

/** A call too long to read: which argument made it so and, when the tool caps that argument, the limit. */
function oversizeError(tool: ToolSpec, o: Oversize): ToolError {
  const n = (v: number): string => v.toLocaleString('en-US');
  const max = o.argument ? (inputJsonSchema(tool).properties as Record<string, { maxLength?: number }> | undefined)?.[o.argument]?.maxLength : undefined;
  const culprit = o.argument && o.chars !== undefined ? `; \`${o.argument.slice(0, 40)}\` is ${n(o.chars)} characters${max ? `; the limit is ${n(max)}` : ''}` : '';
  return new ToolError('invalid_input', `${tool.name}: the request is ${n(o.bytes)} bytes, over the ${n(o.limit)} a message may have${culprit}`);
}
