/**
 * Runs the MCP server on this process's stdin/stdout until the client goes away (stdin ends), the transport fails,
 * or SIGINT/SIGTERM arrives. Logs go to stderr through the Logger; stdout carries only the protocol. While it runs,
 * the workspace is watched and changed files go to the engine's change queue (when the server may index).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { watchWorkspace, type WorkspaceWatcher } from '../node/workspace-watcher';
import { inboundLines } from './inbound';
import { createOracleMcpServer, type OracleMcpOptions } from './server';
import { guardStdout } from './stdout-guard';

export interface StdioOptions extends OracleMcpOptions {
  /** Watch the workspace for changed files (default: when autoIndex is on). */
  watch?: boolean;
}

export async function serveStdio(options: StdioOptions): Promise<void> {
  const { logger, engine } = options;
  const guard = guardStdout();
  const mcp = createOracleMcpServer(options);
  let watcher: WorkspaceWatcher | undefined;
  // Messages the SDK would drop or answer with a bare JSON-RPC error are first made answerable (see inbound.ts).
  const input = inboundLines(process.stdin, (why) => logger.warn(`MCP input: ${why}`));
  const transport = new StdioServerTransport(input, guard.protocol);
  let closing: Promise<void> | undefined;
  const closed = new Promise<void>((resolve) => {
    mcp.server.onclose = () => resolve();
  });
  const shutdown = (why: string): void => {
    if (closing) return;
    logger.debug(`MCP server closing: ${why}`);
    closing = mcp.server.close().catch(() => undefined);
  };
  const onEnd = (): void => shutdown('stdin ended');
  const onSignal = (signal: NodeJS.Signals): void => shutdown(signal);
  const onWriteError = (e: Error): void => shutdown(`stdout failed: ${e.message}`);
  process.stdin.once('end', onEnd);
  process.stdin.once('close', onEnd);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  guard.protocol.on('error', onWriteError);
  mcp.server.onerror = (e) => logger.warn(`MCP transport: ${e.message}`);
  try {
    await mcp.server.connect(transport);
    logger.info(`context-oracle MCP server on ${engine.root}`);
    if (options.watch ?? options.autoIndex !== false) {
      watcher = watchWorkspace(engine.root, {
        onChanges: (paths) => {
          logger.debug(`watcher: ${paths.length} changed file(s) queued`);
          engine.noteChanges(paths.map((path) => ({ path }))).catch((e: unknown) => logger.warn(`change queue: ${e instanceof Error ? e.message : String(e)}`));
        },
        onError: (e) => {
          logger.warn(`stopped watching the workspace (${e.message}); changed files are picked up by background refreshes instead`);
          mcp.gate.setWatching(false);
        },
      });
      mcp.gate.setWatching(true);
    }
    // The startup run reads files once every folder is watched: a change in between is seen by one or the other.
    mcp.gate.start(watcher?.ready);
    await closed;
  } finally {
    process.stdin.off('end', onEnd);
    process.stdin.off('close', onEnd);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    watcher?.close();
    await closing;
    await mcp.dispose();
    guard.restore();
  }
}
