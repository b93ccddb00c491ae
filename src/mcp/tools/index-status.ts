/** index_status: what is indexed, how fresh it is, whether indexing is running; adapter over engine.status(). */
import { z } from 'zod/v4';
import { DEFAULT_MAX_TOKENS, fitObject } from '../budget';
import { defineTool, maxTokensArg } from '../tool';

export const indexStatusTool = defineTool({
  name: 'index_status',
  title: 'Index status',
  description:
    'The code index: files per language, counts, skipped files, last update, background indexing progress. Use it ' +
    'when the index seems missing or stale; does not wait. About 300 tokens.',
  input: z.object({ max_tokens: maxTokensArg(DEFAULT_MAX_TOKENS) }).strict(),
  needsIndex: false,
  async run(args, ctx) {
    const status = await ctx.engine.status();
    const indexing = ctx.index.activity();
    const { grammarHash: _grammarHash, ...shown } = status;
    const hint = !status.exists
      ? indexing.state === 'indexing'
        ? 'the index is being built now; other tools wait for it'
        : indexing.state === 'disabled'
          ? `no index; run \`context-oracle index --root ${JSON.stringify(status.root)}\``
          : 'no index yet; the next query builds it'
      : undefined;
    const body = { ...shown, indexing, session: ctx.session.summary(), ...(hint ? { hint } : {}) };
    return fitObject(body, args.max_tokens);
  },
});
