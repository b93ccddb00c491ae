import type { SyncOutcome } from '../../core';
import type { Command } from './types';

function formatSync(s: SyncOutcome): string {
  const lines = s.pairs.filter((p) => p.status !== 'ok').map((p) => `${p.status.padEnd(11)} ${p.doc_path} <-> ${p.code_path}  [${p.ref_id}] ${p.reason}`);
  lines.push(`${s.pairs.length} doc↔code pairs: ${s.counts.ok} ok, ${s.counts.stale} stale, ${s.counts.untracked} untracked, ${s.counts.doc_missing} doc missing`);
  if (s.marked) lines.push(`marked ${s.marked} pair${s.marked === 1 ? '' : 's'} synced`);
  if (s.baselined) lines.push(`recorded ${s.baselined} baseline${s.baselined === 1 ? '' : 's'}`);
  return lines.join('\n');
}

/** Exit 1 with --check when any pair is stale (for CI); otherwise 0. */
export const syncCommand: Command = {
  name: 'sync',
  needsIndex: true,
  summary: 'doc↔code sync: stale docs, record baselines, --mark pairs synced',
  usage: 'sync [--force] [--mark REF_ID|PATH]... [--check]',
  flags: { mark: { type: 'list' }, check: { type: 'boolean' }, force: { type: 'boolean' } },
  async run({ engine, flags, out }) {
    // --force: bring the code index up to date at once (queued changes, or an incremental run) before the doc check.
    if (flags.force) {
      await engine.syncNow();
      const indexed = await engine.index();
      if (!flags.json) out(`index: ${indexed.parsed} parsed, ${indexed.removed} removed, ${indexed.unchanged} unchanged`);
    }
    const outcome = await engine.sync({ mark: (flags.mark as string[] | undefined) ?? [], check: Boolean(flags.check) });
    out(flags.json ? JSON.stringify(outcome, null, 2) : formatSync(outcome));
    return flags.check && outcome.counts.stale ? 1 : 0;
  },
};
