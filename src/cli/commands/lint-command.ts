import { formatPorcelain, formatRich, lintExitCode } from '../../core';
import { UsageError } from '../args';
import type { Command } from './types';

/** Exit 0 with a report by default; 1 with --strict on any error, 1 with --fail-on-warn on any finding. */
export const lintCommand: Command = {
  name: 'lint',
  needsIndex: true,
  summary: 'check the graph and architecture rules (deny, require, cycles, layers, imports)',
  usage: 'lint [--strict] [--fail-on-warn] [--format rich|json|porcelain]',
  flags: { strict: { type: 'boolean' }, 'fail-on-warn': { type: 'boolean' }, format: { type: 'string' } },
  async run({ engine, flags, out }) {
    const format = String(flags.format ?? (flags.json ? 'json' : 'rich'));
    if (!['rich', 'json', 'porcelain'].includes(format)) throw new UsageError(`--format must be rich, json or porcelain, got "${format}"`);
    const report = await engine.lint();
    if (format === 'json') out(JSON.stringify(report, null, 2));
    else if (format === 'porcelain') { const text = formatPorcelain(report); if (text) out(text); }
    else out(formatRich(report));
    return lintExitCode(report, { strict: Boolean(flags.strict), failOnWarn: Boolean(flags['fail-on-warn']) });
  },
};
