/** get_repo_map: the ranked map of files and signatures; adapter over engine.repoMap(). */
import { z } from 'zod/v4';
import { countTokens, mentionsFromText } from '../../core';
import { contentBudget, fitWithin } from '../budget';
import { ARG_LIMITS, defineTool, maxTokensArg, textArg } from '../tool';

const DEFAULT_BUDGET = 2_000;
/** Room for the JSON header sent before the map. */
const HEADER_RESERVE = 120;

export const getRepoMapTool = defineTool({
  name: 'get_repo_map',
  title: 'Repository map',
  description:
    'Orientation map: the most important files (PageRank) with the signatures of their key definitions, filling ' +
    'max_tokens (default 2,000). Use it first in an unfamiliar codebase.',
  input: z
    .object({
      scope: z.string().max(ARG_LIMITS.path).optional().describe('Workspace-relative folder or file (default all)'),
      focus: z.string().max(ARG_LIMITS.query).optional().describe('Question, file names or identifiers to centre the ranking on'),
      max_tokens: maxTokensArg(DEFAULT_BUDGET),
    })
    .strict(),
  needsIndex: true,
  async run(args, ctx) {
    const budget = contentBudget(args.max_tokens ?? DEFAULT_BUDGET);
    const scope = args.scope === undefined ? '' : (await ctx.paths.resolveExisting(args.scope, 'scope')).rel;
    const mentions = args.focus ? mentionsFromText(args.focus) : { files: [], idents: [] };
    const map = await ctx.engine.repoMap({
      maxTokens: budget - HEADER_RESERVE,
      ...(scope ? { scope } : {}),
      ...(mentions.files.length ? { mentionedFiles: mentions.files } : {}),
      ...(mentions.idents.length ? { mentionedIdents: mentions.idents } : {}),
    });
    const cut = map.stats.shown < map.stats.candidates;
    const head = {
      scope: scope || '.',
      ...(args.focus ? { focus: args.focus } : {}),
      map_tokens: map.tokens,
      files: map.files.length,
      ranked_entries: { shown: map.stats.shown, total: map.stats.candidates },
      ...(cut
        ? { note: `the budget cut the map after the ${map.stats.shown} best of ${map.stats.candidates} ranked entries; for more, raise max_tokens (up to 25000), narrow scope, or set focus` }
        : {}),
      ...(map.text.trim() ? {} : { hint: 'nothing to map here: the scope holds no indexed definitions' }),
    };
    // A long `focus` echoed back is cut rather than pushing the answer over the budget asked for.
    const text = JSON.stringify(fitWithin(head, HEADER_RESERVE));
    return {
      text,
      blocks: map.text.trim() ? [map.text] : [],
      tokens: countTokens(text) + map.tokens,
      items: map.files.map((f) => ({ ref: f.path, path: f.path, kind: 'file' })),
    };
  },
});
