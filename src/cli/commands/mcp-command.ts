import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../args';
import { createStderrLogger } from '../../node/logger';
import { MODEL_FLAGS, MODEL_USAGE } from '../model-flags';
import { CONTEXT_FLAGS, contextOptions } from './context-command';
import type { Command } from './types';

/** The embeddings flags of `context` (same env fallbacks), so get_context can use the vector path too. */
const EMBEDDING_FLAGS = Object.fromEntries(Object.entries(CONTEXT_FLAGS).filter(([name]) => name.startsWith('embeddings-')));

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the MCP tools to coding agents over stdio (logs on stderr)',
  // The model flags reach ask_oracle through the engine's user model (main.ts).
  usage: `mcp [--root DIR] [--no-auto-index] [--refresh-seconds N] [--session ID] [--embeddings-url URL --embeddings-model M] ${MODEL_USAGE}`,
  flags: { session: { type: 'string' }, 'no-auto-index': { type: 'boolean' }, 'refresh-seconds': { type: 'number' }, ...EMBEDDING_FLAGS, ...MODEL_FLAGS },
  async run({ engine, flags }) {
    // Some hosts start servers in the home folder; indexing all of it would be slow and surprising.
    if (flags.root === undefined && (engine.root === resolve(homedir()) || engine.root === resolve('/'))) {
      throw new UsageError(`mcp was started in ${engine.root} without --root; pass --root <project folder> in the host's MCP configuration`);
    }
    const { embeddings } = contextOptions(Object.fromEntries(Object.entries(flags).filter(([name]) => name.startsWith('embeddings-'))));
    // Loaded here, not at start: the MCP server, its SDK and its tools' schemas cost every other command ~0.1 CPU-s.
    const { serveStdio } = await import('../../mcp/stdio');
    await serveStdio({
      engine,
      logger: createStderrLogger(flags.verbose ? 'debug' : 'warn'),
      autoIndex: !flags['no-auto-index'],
      ...(flags['refresh-seconds'] !== undefined ? { refreshIntervalMs: Number(flags['refresh-seconds']) * 1000 } : {}),
      settings: embeddings ? { embeddings } : {},
      // One conversation per workspace unless told otherwise: a restarted server (a new agent window) goes on with it.
      conversation: flags.session !== undefined ? String(flags.session) : 'mcp',
    });
    return 0;
  },
};
