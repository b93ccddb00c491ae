import { renderWhy } from '../../core';
import { UsageError } from '../args';
import type { Command } from './types';

export const whyCommand: Command = {
  name: 'why',
  needsIndex: true,
  summary: 'impact analysis: what a node depends on and what depends on it',
  usage: 'why REF_ID [--depth N] [--max-nodes N] [--reverse] [--format panel|tree]',
  flags: { depth: { type: 'number' }, 'max-nodes': { type: 'number' }, reverse: { type: 'boolean' }, format: { type: 'string' } },
  async run({ engine, positionals, flags, out }) {
    if (positionals.length !== 1) throw new UsageError('why needs exactly one REF_ID');
    const format = String(flags.format ?? 'panel');
    if (format !== 'panel' && format !== 'tree') throw new UsageError(`--format must be panel or tree, got "${format}"`);
    const result = await engine.why(positionals[0]!, {
      ...(flags.depth !== undefined ? { depth: Number(flags.depth) } : {}),
      ...(flags['max-nodes'] !== undefined ? { maxNodes: Number(flags['max-nodes']) } : {}),
      reverse: Boolean(flags.reverse),
    });
    out(flags.json ? JSON.stringify(result, null, 2) : renderWhy(result, format));
    return 0;
  },
};
