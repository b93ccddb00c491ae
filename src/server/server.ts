/**
 * The language server: hosts the engine in its own process, off the extension host. Composition root for this host.
 * Indexing starts after `initialized` and never blocks `initialize`; progress goes to the client as
 * `contextOracle/activity` notifications; the custom requests are declared in src/protocol/language-server.ts.
 */
import { fileURLToPath } from 'node:url';
import {
  createConnection, ProposedFeatures, TextDocumentSyncKind, type CancellationToken, type DidChangeConfigurationParams,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { createNodeEngine } from '../node/node-engine';
import type {
  InitializationOptions, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, OracleRequests, ServerSettings,
} from '../protocol/language-server';
import { createConnectionLogger } from './connection-logger';
import { createIndexSession, type IndexSession } from './index-session';
import { toResponseError } from './response-errors';
import { sameSettings, sanitizeSettings, toEngineConfig } from './settings';

type RequestHandlers = {
  [M in OracleRequestMethod]: (params: OracleRequests[M]['params'], token: CancellationToken) => Promise<OracleRequests[M]['result']>;
};

const connection = createConnection(ProposedFeatures.all);
const logger = createConnectionLogger(connection.console);
let session: IndexSession | undefined;
let settings: ServerSettings = {};
let autoIndex = true;

function notify<M extends OracleNotificationMethod>(method: M, params: OracleNotifications[M]): void {
  connection.sendNotification(method, params).catch(() => undefined); // the client may be gone; nothing to do
}

function workspaceRoot(params: InitializeParams): string | undefined {
  const uri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
  if (!uri) return params.rootPath ?? undefined;
  if (!uri.startsWith('file:')) {
    logger.warn(`workspace folder ${uri} is not on the local file system; not indexing it`);
    return undefined;
  }
  return fileURLToPath(uri);
}

function requireSession(): IndexSession {
  if (!session) throw new Error('the server is not initialized');
  return session;
}

function abortSignalFor(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

const handlers: RequestHandlers = {
  'contextOracle/index': (params, token) => requireSession().index(params ?? {}, abortSignalFor(token)),
  'contextOracle/status': () => requireSession().status(),
  'contextOracle/search': (params) => requireSession().search(params),
};

for (const method of Object.keys(handlers) as OracleRequestMethod[]) {
  connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
    try {
      return await (handlers[method] as (p: unknown, t: CancellationToken) => Promise<unknown>)(params, token);
    } catch (e) {
      throw toResponseError(e);
    }
  });
}

connection.onInitialize((params) => {
  const init = (params.initializationOptions ?? {}) as Partial<InitializationOptions>;
  settings = sanitizeSettings(init.settings);
  autoIndex = init.autoIndex !== false;
  const root = workspaceRoot(params);
  if ((params.workspaceFolders?.length ?? 0) > 1) logger.info(`several workspace folders are open; indexing the first, ${root}`);
  session = createIndexSession({
    root,
    settings,
    logger,
    createEngine: (r, s) => createNodeEngine({
      root: r, logger, assetRoot: __dirname, config: toEngineConfig(s), ...(s.indexPath ? { indexPath: s.indexPath } : {}),
    }),
    notify: (activity) => notify('contextOracle/activity', activity),
  });
  logger.info(`server ${process.pid} on node ${process.version}: workspace ${root ?? '(none)'}, settings ${JSON.stringify(settings)}`);
  return { capabilities: { textDocumentSync: TextDocumentSyncKind.None }, serverInfo: { name: 'context-oracle' } };
});

connection.onInitialized(() => {
  const s = requireSession();
  if (!autoIndex || s.activity().state === 'no-folder') {
    notify('contextOracle/activity', s.activity());
    return;
  }
  // Background: `initialized` returns at once; the client learns about progress through notifications.
  setImmediate(() => { s.index({}).catch(() => undefined); }); // failures are logged and published by the session
});

connection.onDidChangeConfiguration((change: DidChangeConfigurationParams) => {
  const next = sanitizeSettings((change.settings as { contextOracle?: unknown } | undefined)?.contextOracle);
  if (!session || sameSettings(next, settings)) return;
  settings = next;
  logger.info(`settings changed to ${JSON.stringify(settings)}; re-creating the engine`);
  session.reconfigure(settings, autoIndex).catch(() => undefined);
});

connection.onShutdown(async () => {
  await session?.dispose();
  session = undefined;
});

connection.listen();
