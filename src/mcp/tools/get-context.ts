/**
 * get_context: either smart context for a question (engine.getContextForQuestion) or the context bundle of graph
 * nodes, files or symbols (engine.contextBundle). Both are budgeted by the engine itself; this adapter only keeps
 * room for its header and says what the budget left out.
 */
import { z } from 'zod/v4';
import { type ContextResult, countTokens, isUnchanged } from '../../core';
import { depthField, questionField, refIdField } from '../../protocol/fields';
import { contentBudget, DEFAULT_MAX_TOKENS, fitObject, fitWithin } from '../budget';
import { ToolError } from '../errors';
import type { SessionItem } from '../session';
import { ARG_LIMITS, defineTool, maxTokensArg, type ToolAnswer, type ToolContext } from '../tool';

/** Room for the JSON header sent before the context text (a quarter of small budgets). */
const HEADER_RESERVE = 400;
const FILES_SHOWN = 10;

const input = z
  .object({
    question: questionField(ARG_LIMITS.question).optional(),
    ref_ids: z.array(refIdField(ARG_LIMITS.path)).min(1).max(20).optional().describe('Instead of question: node ids, files or "path::Symbol"s'),
    format: z.enum(['markdown', 'mu']).optional().describe('Question only (default markdown)'),
    exclude_tests: z.boolean().optional().describe('Question only: leave tests out'),
    depth: depthField(0, 5).optional().describe('ref_ids only: graph hops (default 2)'),
    etag: z.string().max(ARG_LIMITS.etag).optional().describe('ref_ids only: etag of the bundle you hold'),
    max_tokens: maxTokensArg(DEFAULT_MAX_TOKENS),
  })
  .strict();

export const getContextTool = defineTool({
  name: 'get_context',
  title: 'Context for a question',
  description:
    'The code needed to answer a question in one call: the best definitions and call sites, ranked by names, full ' +
    'text and the call graph, filling max_tokens (default 8,000). With ref_ids instead: the context bundle of graph ' +
    'nodes, files or symbols, and its etag; pass etag back for a short {unchanged} reply.',
  input,
  needsIndex: true,
  async run(args, ctx) {
    if (args.question === undefined && args.ref_ids === undefined) {
      throw new ToolError('required', 'get_context needs `question` (context for a question) or `ref_ids` (a bundle for graph nodes, files or path::Symbol ids)');
    }
    if (args.question !== undefined && args.ref_ids !== undefined) {
      throw new ToolError('invalid_input', 'give get_context either `question` or `ref_ids`, not both');
    }
    if (args.etag !== undefined && args.ref_ids === undefined) {
      throw new ToolError('invalid_input', 'get_context: `etag` goes with `ref_ids` (it names a bundle); a question\'s context has none');
    }
    const budget = contentBudget(args.max_tokens);
    return args.question !== undefined ? forQuestion(args.question, args, budget, ctx) : forRefs(args.ref_ids!, args, budget, ctx);
  },
});

async function forQuestion(question: string, args: z.output<typeof input>, budget: number, ctx: ToolContext): Promise<ToolAnswer> {
  const result = await ctx.engine.getContextForQuestion(question, {
    maxTokens: budget - Math.min(HEADER_RESERVE, Math.floor(budget / 4)),
    format: args.format ?? 'markdown',
    ...(args.exclude_tests ? { excludeTests: true } : {}),
    ...(ctx.settings.embeddings ? { embeddings: ctx.settings.embeddings } : {}),
    signal: ctx.signal,
  });
  const textTokens = countTokens(result.text);
  const answer = (text: string): ToolAnswer => ({
    text,
    blocks: result.text ? [result.text] : [],
    tokens: countTokens(text) + textTokens,
    items: result.files.map((f): SessionItem => ({ ref: `${f.path}:${f.line}`, path: f.path, line: f.line, kind: 'file' })),
  });
  // The header's file list and its summary of what was left out are the parts that grow with the answer: they
  // shrink first, then the echoed question is cut, until header and text fit the budget asked for.
  for (const [files, best, note] of HEADER_STEPS) {
    const text = JSON.stringify(header(result, files, best, note));
    if (countTokens(text) + textTokens <= budget) return answer(text);
  }
  return answer(JSON.stringify(fitWithin(header(result, 0, 0, false), Math.max(2, budget - textTokens))));
}

/** Header sizes tried in turn: files listed, left-out parts named, whether the left-out note is kept. */
const HEADER_STEPS: readonly (readonly [number, number, boolean])[] = [[FILES_SHOWN, 5, true], [5, 5, true], [2, 2, true], [0, 2, false], [0, 0, false]];

function header(result: ContextResult, files: number, best: number, note: boolean): Record<string, unknown> {
  const cut = result.cut;
  return {
    question: result.question,
    token_count: result.tokenCount,
    files: result.files.slice(0, files).map((f) => ({ path: f.path, line: f.line, score: Math.round(f.score * 1000) / 1000 })),
    ...(cut.length
      ? {
          left_out: {
            count: cut.length,
            ...(best ? { best: cut.slice(0, best).map((c) => `${c.id}${c.reason === 'trimmed' ? ' (signature only)' : ''}`) } : {}),
            ...(note ? { note: 'parts the budget left out or shortened, best first; raise max_tokens for more, or look one up with find_definition' } : {}),
          },
        }
      : {}),
    ...(result.empty ? { empty: result.empty } : {}),
  };
}

async function forRefs(refIds: string[], args: z.output<typeof input>, budget: number, ctx: ToolContext): Promise<ToolAnswer> {
  const head = { ref_ids: refIds };
  const reserve = countTokens(JSON.stringify({ ...head, tokens: 100000, etag: 'sha256:0000000000000000', bundle: {} })) + 8;
  const result = await ctx.engine.contextBundle(refIds, {
    maxTokens: budget - reserve,
    ...(args.depth !== undefined ? { depth: args.depth } : {}),
    ...(args.etag !== undefined ? { etag: args.etag } : {}),
  });
  // The caller holds this very bundle (same ids, depth and budget, nothing changed since): a short reply instead.
  if (isUnchanged(result)) return fitObject({ ...result }, args.max_tokens);
  // The engine never drops focus nodes; if they alone overflow, long fields are shortened instead. A bundle
  // shortened here is not the one the etag names, so it goes without one.
  const whole = { ...head, tokens: result.tokens, etag: result.etag, bundle: result.bundle };
  const fits = countTokens(JSON.stringify(whole)) <= budget;
  const { text, tokens } = fitObject(fits ? whole : { ...head, tokens: result.tokens, bundle: result.bundle }, args.max_tokens);
  const b = result.bundle;
  const items: SessionItem[] = [
    ...b.graph.nodes.map((n) => ({ ref: n.ref_id, kind: n.kind })),
    ...b.code_symbols.map((s) => ({ ref: `${s.file_path}#${s.symbol_name}`, path: s.file_path, line: s.line_start, symbol: s.symbol_name, kind: s.kind })),
  ];
  return { text, tokens, items };
}
