import type { Logger } from '../core';

/** The part of vscode-languageserver's RemoteConsole the logger needs (window/logMessage). */
export interface ConsoleLike {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  log(message: string): void;
  debug(message: string): void;
}

/**
 * Engine logs go to the client as window/logMessage; the extension's LogOutputChannel filters by level, so trace
 * and debug are sent as Debug and stay hidden unless the user raises the channel's log level.
 */
export function createConnectionLogger(console: ConsoleLike): Logger {
  return {
    trace: (m) => console.debug(m),
    debug: (m) => console.debug(m),
    info: (m) => console.info(m),
    warn: (m) => console.warn(m),
    error: (m) => console.error(m),
  };
}
