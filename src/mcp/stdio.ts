/**
 * Runs the MCP server on this process's stdin/stdout until the client goes away (stdin ends), the transport fails,
 * or SIGINT/SIGTERM arrives. Logs go to stderr through the Logger; stdout carries only the protocol.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createOracleMcpServer, type OracleMcpOptions } from './server';
import { guardStdout } from './stdout-guard';

export async function serveStdio(options: OracleMcpOptions): Promise<void> {
  const { logger } = options;
  const guard = guardStdout();
  const mcp = createOracleMcpServer(options);
  const transport = new StdioServerTransport(process.stdin, guard.protocol);
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
    logger.info(`context-oracle MCP server on ${options.engine.root}`);
    mcp.gate.start();
    await closed;
  } finally {
    process.stdin.off('end', onEnd);
    process.stdin.off('close', onEnd);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closing;
    await mcp.dispose();
    guard.restore();
  }
}
