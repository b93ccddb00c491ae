import { formatIndexOutcome } from '../format';
import { createProgressReporter } from '../progress';
import type { Command } from './types';

export const indexCommand: Command = {
  name: 'index',
  summary: 'index the workspace (incremental; --full rebuilds)',
  usage: 'index [--full]',
  flags: { full: { type: 'boolean' } },
  async run({ engine, flags, out }) {
    const progress = flags.json ? { update() {}, end() {} } : createProgressReporter();
    const outcome = await engine.index({ full: Boolean(flags.full), onProgress: (p) => progress.update(p) });
    progress.end();
    out(flags.json ? JSON.stringify(outcome, null, 2) : formatIndexOutcome(outcome));
    return 0;
  },
};
