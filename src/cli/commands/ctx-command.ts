import { bundleToMarkdown, isUnchanged } from '../../core';
import { UsageError } from '../args';
import type { Command } from './types';

export const ctxCommand: Command = {
  name: 'ctx',
  needsIndex: true,
  summary: 'context bundle for graph nodes, files or path::Symbol ids',
  usage: 'ctx REF_ID... [--depth N] [--max-nodes N] [--max-chunks N] [--max-tokens N] [--json|--markdown] [--etag ETAG]',
  flags: { depth: { type: 'number' }, 'max-nodes': { type: 'number' }, 'max-chunks': { type: 'number' }, 'max-tokens': { type: 'number' }, markdown: { type: 'boolean' }, etag: { type: 'string' } },
  async run({ engine, positionals, flags, out }) {
    if (!positionals.length) throw new UsageError('ctx needs at least one REF_ID');
    if (flags.json && flags.markdown) throw new UsageError('--json and --markdown exclude each other');
    const num = (name: string) => (flags[name] === undefined ? undefined : Number(flags[name]));
    const maxTokens = num('max-tokens');
    if (maxTokens !== undefined && maxTokens < 1) throw new UsageError('--max-tokens needs a positive number');
    const depth = num('depth');
    const maxNodes = num('max-nodes');
    const maxChunks = num('max-chunks');
    const result = await engine.contextBundle(positionals, {
      ...(depth !== undefined ? { depth } : {}),
      ...(maxNodes !== undefined ? { maxNodes } : {}),
      ...(maxChunks !== undefined ? { maxChunks } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(flags.etag !== undefined ? { etag: String(flags.etag) } : {}),
    });
    // Sent the etag of the bundle it holds: a short reply instead of the same bundle again.
    if (isUnchanged(result)) out(flags.json ? JSON.stringify(result, null, 2) : `unchanged (${result.etag}): ${result.hint}`);
    else out(flags.json ? JSON.stringify({ ...result.bundle, tokens: result.tokens, etag: result.etag }, null, 2) : bundleToMarkdown(result.bundle, result.tokens));
    return 0;
  },
};
