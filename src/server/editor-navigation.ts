/**
 * The engine's NavigationProvider port, answered by the client: the server sends `contextOracle/nav/*` requests and
 * the extension runs the editor's own providers (vscode.executeDefinitionProvider and friends). A provider that takes
 * too long (a language server still starting) is given up on, and the engine answers from the index instead.
 */
import { EngineError, type Logger, type NavigationProvider } from '../core';
import type { OracleClientRequestMethod, OracleClientRequests } from '../protocol/language-server';

export type SendClientRequest = <M extends OracleClientRequestMethod>(
  method: M, params: OracleClientRequests[M]['params'], signal?: AbortSignal,
) => Promise<OracleClientRequests[M]['result']>;

export function createEditorNavigation(send: SendClientRequest, logger: Logger, timeoutMs = 8_000): NavigationProvider {
  async function call<M extends OracleClientRequestMethod>(method: M, params: OracleClientRequests[M]['params'], signal?: AbortSignal): Promise<OracleClientRequests[M]['result']> {
    if (signal?.aborted) throw new EngineError('cancelled', 'operation cancelled');
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const result = await Promise.race([
        send(method, params, controller.signal),
        new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(
          signal?.aborted ? new EngineError('cancelled', 'operation cancelled') : new Error(`${method} took longer than ${timeoutMs} ms`),
        ), { once: true })),
      ]);
      if (!Array.isArray(result)) throw new Error(`${method} answered ${typeof result}, not a list`);
      logger.debug(`${method} ${JSON.stringify(params)}: ${result.length} answers from the editor`);
      return result;
    } catch (e) {
      // The engine falls back to the index; say why here, where the editor's side of it is known.
      if (!signal?.aborted) logger.info(`${method} ${JSON.stringify(params)} failed, using the index: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return {
    definitions: (at, signal) => call('contextOracle/nav/definitions', { at }, signal),
    references: (at, signal) => call('contextOracle/nav/references', { at }, signal),
    implementations: (at, signal) => call('contextOracle/nav/implementations', { at }, signal),
    workspaceSymbols: (query, signal) => call('contextOracle/nav/workspaceSymbols', { query }, signal),
  };
}
