/**
 * query: the concept query in the context-query envelope ({status, result, errors, meta}): graph nodes and code
 * symbols whose names hold the term, their neighbours, and their files with previews; adapter over
 * engine.conceptQuery(), the CLI's `query`. An error envelope becomes a typed error; a success envelope that does
 * not fit the budget has its previews shortened first.
 */
import { z } from 'zod/v4';
import { type ConceptResult, countTokens, type QueryEnvelope } from '../../core';
import { depthField, limitField } from '../../protocol/fields';
import { clampBudget, contentBudget, fitObject, type Answer } from '../budget';
import { ToolError, type ToolErrorCode } from '../errors';
import { ARG_LIMITS, defineTool, maxTokensArg, textArg } from '../tool';

const DEFAULT_BUDGET = 4_000;

export const queryTool = defineTool({
  name: 'query',
  title: 'Concept query',
  description:
    'Concept query (context-query envelope): graph nodes and code symbols whose names hold the term, their ' +
    'neighbours, and their files with previews. About 1–3k tokens.',
  input: z
    .object({
      query: textArg(ARG_LIMITS.query).describe('A name or part of one'),
      depth: depthField(0, 2).optional().describe('Neighbour hops (default 1)'),
      limit: limitField(200).optional().describe('Most concepts (default 10)'),
      max_tokens: maxTokensArg(DEFAULT_BUDGET),
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const envelope = await ctx.engine.conceptQuery(args.query, {
      ...(args.depth !== undefined ? { depth: args.depth } : {}),
      ...(args.limit !== undefined ? { limit: args.limit } : {}),
    });
    if (envelope.status === 'error' || !envelope.result) {
      const first = Object.values(envelope.errors ?? {}).flat()[0];
      const code: ToolErrorCode = first?.code === 'required' || first?.code === 'not_initialized' ? first.code : 'invalid_input';
      throw new ToolError(code, `query: ${first?.message ?? 'the query failed'}`);
    }
    const result = envelope.result;
    const hint = result.concepts.length ? undefined : 'no graph node or symbol name holds this term; try a shorter part of a name, or search_code for words';
    return {
      ...fitEnvelope(envelope as QueryEnvelope & { result: ConceptResult }, hint, args.max_tokens ?? DEFAULT_BUDGET),
      items: result.concepts.map((c) => ({ ref: c.name, kind: c.type || 'concept' })),
    };
  },
});

/** Longest preview kept once the whole envelope does not fit. */
const SHORT_PREVIEW = 80;

/**
 * The envelope within the budget, least useful parts first: previews shortened, then files dropped from the end,
 * then concepts (and the edges that name them) from the end, each step said in `truncated`. What is left keeps the
 * envelope's shape, so a reader of the seed format still reads it.
 */
function fitEnvelope(envelope: QueryEnvelope & { result: ConceptResult }, hint: string | undefined, maxTokens: number): Answer {
  const budget = contentBudget(maxTokens);
  let { concepts, files, graph } = envelope.result;
  const render = (note?: string): Answer => {
    const text = JSON.stringify({ ...envelope, result: { concepts, files, graph }, ...(hint ? { hint } : {}), ...(note ? { truncated: note } : {}) });
    return { text, tokens: countTokens(text) };
  };
  const whole = render();
  if (whole.tokens <= budget) return whole;
  const all = { concepts: concepts.length, files: files.length };
  const note = () => `shortened to fit max_tokens=${clampBudget(maxTokens)}: previews cut, ${concepts.length} of ${all.concepts} concepts and ${files.length} of ${all.files} files kept; raise max_tokens or lower limit`;
  files = files.map((f) => (f.preview.length > SHORT_PREVIEW ? { ...f, preview: `${f.preview.slice(0, SHORT_PREVIEW)}…` } : f));
  while (files.length && render(note()).tokens > budget) files = files.slice(0, -1);
  while (concepts.length > 1 && render(note()).tokens > budget) {
    concepts = concepts.slice(0, -1);
    const kept = new Set(concepts.map((c) => c.id));
    graph = { nodes: graph.nodes.filter((id) => kept.has(id)), edges: graph.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
  }
  const fitted = render(note());
  return fitted.tokens <= budget ? fitted : fitObject(JSON.parse(fitted.text) as Record<string, unknown>, maxTokens);
}
