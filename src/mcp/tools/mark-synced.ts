/**
 * mark_synced: records that the docs of a node (or one doc or code file) were brought up to date with its code;
 * adapter over engine.sync({mark}), the CLI's `sync --mark`. The one MCP tool that writes to the workspace (its sync
 * state file), so it writes only when called with `confirm: true`; without it, it answers what it would mark and
 * changes nothing (engine.sync in check mode, which still refuses an unknown target with not_found).
 */
import { z } from 'zod/v4';
import type { SyncPair } from '../../core';
import { fitObject } from '../budget';
import { defineTool, maxTokensArg, refIdArg } from '../tool';

/** Most pairs listed in an answer; the counts are always whole. */
const PAIRS_SHOWN = 50;

/** A pair is marked by its node's ref_id, its doc path or its code path (as the engine matches `mark`). */
export function pairMatches(p: SyncPair, target: string): boolean {
  return p.ref_id === target || p.doc_path === target || p.code_path === target;
}

export const markSyncedTool = defineTool({
  name: 'mark_synced',
  title: 'Mark docs synced',
  description:
    'After updating a stale doc: marks the doc↔code pairs of a node, doc or code file synced (and baselines new pairs, ' +
    'as `sync` does). Writes only with confirm: true, else says what it would mark. About 300 tokens.',
  input: z
    .object({
      ref_id: refIdArg('Node id, doc path or code path (see sync_check)'),
      confirm: z.boolean().optional().describe('true to write; otherwise a dry run'),
      max_tokens: maxTokensArg(),
    })
    .strict(),
  needsIndex: true,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run(args, ctx) {
    const shown = (pairs: SyncPair[]) => pairs.slice(0, PAIRS_SHOWN).map((p) => ({ doc_path: p.doc_path, code_path: p.code_path, status: p.status }));
    if (args.confirm !== true) {
      const report = await ctx.engine.sync({ mark: [args.ref_id], check: true });
      // What the engine would record: the target's pairs it can hash (doc present), and baselines of new pairs.
      const markable = report.pairs.filter((p) => pairMatches(p, args.ref_id) && p.status !== 'doc_missing');
      const baselines = report.pairs.filter((p) => !pairMatches(p, args.ref_id) && p.status !== 'doc_missing' && (p.status === 'untracked' || p.reason === 'doc_updated')).length;
      const body = {
        dry_run: true,
        ref_id: args.ref_id,
        would_mark: markable.length,
        ...(baselines ? { would_baseline: baselines } : {}),
        pairs: shown(markable),
        note: 'nothing was changed; call mark_synced again with confirm: true to record these pairs as synced',
      };
      return fitObject(body, args.max_tokens);
    }
    const outcome = await ctx.engine.sync({ mark: [args.ref_id] });
    const body = {
      ref_id: args.ref_id,
      marked: outcome.marked,
      baselined: outcome.baselined,
      pairs: shown(outcome.pairs.filter((p) => pairMatches(p, args.ref_id))),
      counts: outcome.counts,
    };
    return { ...fitObject(body, args.max_tokens), items: [{ ref: args.ref_id, kind: 'sync' }] };
  },
});
