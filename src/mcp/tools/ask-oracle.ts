/** ask_oracle: an answer with numbered citations from code, docs, git and threads; adapter over engine.ask(). */
import { z } from 'zod/v4';
import { collectAnswer, countTokens, MAX_QUESTION_CHARS, SOURCE_NAMES, type SourceName } from '../../core';
import { questionField } from '../../protocol/fields';
import { contentBudget, fitObject } from '../budget';
import { defineTool, maxTokensArg } from '../tool';

const DEFAULT_BUDGET = 4_000;

export const askOracleTool = defineTool({
  name: 'ask_oracle',
  title: 'Ask the oracle',
  description:
    'Answers a question about this project with cited sources (path:lines) from code, docs, git history and threads; ' +
    'model-written when one is configured, else extractive. Follow-ups refer to this session\'s earlier calls. ' +
    'Slower than the rest. About 300–2,000 tokens.',
  input: z
    .object({
      question: questionField(MAX_QUESTION_CHARS),
      sources: z.array(z.enum(SOURCE_NAMES as [SourceName, ...SourceName[]])).min(1).max(SOURCE_NAMES.length).optional().describe('Where to look (default all)'),
      max_tokens: maxTokensArg(DEFAULT_BUDGET),
    })
    .strict(),
  needsIndex: true,
  // It appends to the day's session log and may call the configured model endpoint.
  annotations: { readOnlyHint: false, openWorldHint: true },
  async run(args, ctx) {
    const stream = ctx.engine.ask(args.question, {
      ...(args.sources ? { sources: args.sources } : {}),
      session: ctx.session.id,
      author: ctx.client ?? 'mcp-agent',
      signal: ctx.signal,
    });
    const result = await collectAnswer(stream, (event) => { if (event.type === 'phase') ctx.progress?.step(event.message); });
    const asked = args.max_tokens ?? DEFAULT_BUDGET;
    const budget = contentBudget(asked);
    const citations = result.citations.map((c) => ({ n: c.n, label: c.label, quote: c.quote }));
    const body = (shown: typeof citations) => ({
      question: result.question,
      mode: result.mode,
      ...(result.model ? { model: result.model } : {}),
      ...(result.modelError ? { model_error: result.modelError } : {}),
      ...(result.noContext ? { no_context: true } : {}),
      answer: result.answer,
      citations: shown,
      ...(result!.stats.inventedCitations ? { invented_citations_removed: result!.stats.inventedCitations } : {}),
      ...(shown.length < citations.length ? { citations_left_out: citations.length - shown.length } : {}),
      sources: result.sources.map((s) => ({ source: s.source, status: s.status, ...(s.reason ? { reason: s.reason } : {}), candidates: s.candidates })),
      ...(result.loggedTo ? { logged_to: result.loggedTo } : {}),
    });
    let shown = citations;
    while (shown.length > 1 && countTokens(JSON.stringify(body(shown))) > budget) shown = shown.slice(0, -1);
    const answer = fitObject(body(shown), asked);
    return {
      ...answer,
      items: result.citations.map((c) => ({ ref: c.label, ...(c.path ? { path: c.path } : {}), ...(c.line ? { line: c.line } : {}), kind: c.kind })),
    };
  },
});
