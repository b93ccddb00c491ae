import type { Logger } from '../core';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'silent'];

/** Logs to stderr (stdout belongs to command output and, in the MCP server, to the protocol). */
export function createStderrLogger(level: LogLevel = 'warn'): Logger {
  const min = ORDER.indexOf(level);
  const at = (l: LogLevel) => (message: string) => {
    if (ORDER.indexOf(l) >= min) process.stderr.write(`[context-oracle ${l}] ${message}\n`);
  };
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
