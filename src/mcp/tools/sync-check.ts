/**
 * sync_check: doc↔code pairs whose doc may be out of date; adapter over engine.sync({check: true}), which records
 * nothing. A ref_id is passed as the engine's `mark` target only to be validated (an unknown one is not_found with
 * the closest ids): in check mode nothing is marked.
 */
import { z } from 'zod/v4';
import { pageListWithHead, windowOf } from '../budget';
import { defineTool, pagedArgs, refIdArg } from '../tool';
import { pairMatches } from './mark-synced';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
const paged = pagedArgs(DEFAULT_LIMIT, MAX_LIMIT);

export const syncCheckTool = defineTool({
  name: 'sync_check',
  title: 'Doc↔code sync check',
  description:
    'Doc↔code pairs whose doc may be out of date: stale (code changed since the doc was synced), untracked, doc ' +
    'missing. Read-only. About 40 tokens per pair; paged.',
  input: z
    .object({
      ref_id: refIdArg('Node id, doc or code path').optional(),
      all: z.boolean().optional().describe('Include ok pairs'),
      ...paged.args,
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const { offset, limit } = paged.page(args, ctx);
    const report = await ctx.engine.sync({ check: true, ...(args.ref_id !== undefined ? { mark: [args.ref_id] } : {}) });
    const pairs = report.pairs.filter((p) => (args.all || p.status !== 'ok') && (args.ref_id === undefined || pairMatches(p, args.ref_id)));
    const target = args.ref_id !== undefined ? { ref_id: args.ref_id } : {};
    const page = pageListWithHead({
      tool: 'sync_check',
      fingerprint: ctx.fingerprint,
      key: 'pairs',
      ...windowOf(pairs, offset, limit),
      maxTokens: args.max_tokens,
    }, [
      {
        ...target,
        counts: report.counts,
        ...(report.pairs.length ? {} : { hint: 'no doc↔code pairs: no graph node declares both docs and source' }),
        ...(report.counts.stale ? { next: 'update each stale doc, then call mark_synced with its ref_id and confirm: true' } : {}),
      },
      { ...target, counts: report.counts },
      target,
    ]);
    return { text: page.text, tokens: page.tokens, items: page.shown.map((p) => ({ ref: p.ref_id, path: p.doc_path, kind: 'doc' })) };
  },
});
