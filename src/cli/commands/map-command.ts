import { mentionsFromText } from '../../core';
import type { Command } from './types';

export const mapCommand: Command = {
  name: 'map',
  needsIndex: true,
  summary: 'ranked repository map: files and signatures that fit a token budget',
  usage: 'map [QUESTION] [--scope DIR] [--max-tokens N] [--focus FILE|IDENT]...',
  flags: { scope: { type: 'string' }, 'max-tokens': { type: 'number' }, focus: { type: 'list' } },
  async run({ engine, positionals, flags, out }) {
    // Mentions personalise the ranking: the question's words, plus --focus items (paths are files, words identifiers).
    const mentions = mentionsFromText([positionals.join(' '), ...((flags.focus as string[] | undefined) ?? [])].join(' '));
    const map = await engine.repoMap({
      ...(flags.scope !== undefined ? { scope: String(flags.scope) } : {}),
      ...(flags['max-tokens'] !== undefined ? { maxTokens: Number(flags['max-tokens']) } : {}),
      ...(mentions.files.length ? { mentionedFiles: mentions.files } : {}),
      ...(mentions.idents.length ? { mentionedIdents: mentions.idents } : {}),
    });
    if (flags.json) out(JSON.stringify(map, null, 2));
    else out(`${map.text.trimEnd()}\n(${map.tokens}/${map.maxTokens} tokens, ${map.files.length} files, ${map.stats.shown} of ${map.stats.candidates} ranked entries)`);
    return 0;
  },
};
