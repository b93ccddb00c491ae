/**
 * The language server: hosts the engine in its own process, off the extension host. Composition root for this host.
 * Indexing starts after `initialized` and never blocks `initialize`; progress goes to the client as
 * `contextOracle/activity` notifications; the custom requests are declared in src/protocol/language-server.ts.
 */
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource, createConnection, ProposedFeatures, TextDocumentSyncKind, type CancellationToken,
  type DidChangeConfigurationParams, type InitializeParams,
} from 'vscode-languageserver/node';
import { createNodeEngine } from '../node/node-engine';
import { nodeHttpClient } from '../node/http';
import type {
  EditorModelConfig, InitializationOptions, OracleClientRequests, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, ServerSettings,
} from '../protocol/language-server';
import { createConnectionLogger } from './connection-logger';
import { editorModelHttp, editorModelSettings } from './editor-model-http';
import { createEditorNavigation, type SendClientRequest } from './editor-navigation';
import { createFreshnessFeed } from './freshness-feed';
import { createIndexSession, type IndexSession } from './index-session';
import { createRequestHandlers, type RequestHandlers } from './request-handlers';
import { toResponseError } from './response-errors';
import { sameSettings, sanitizeModelConfig, sanitizeSettings, toEngineConfig } from './settings';
import { createUserModelSource } from '../node/user-config';
import { applyHostHeapPolicy } from '../node/heap-policy';

applyHostHeapPolicy();

const connection = createConnection(ProposedFeatures.all);
const logger = createConnectionLogger(connection.console);
let session: IndexSession | undefined;
let settings: ServerSettings = {};
let autoIndex = true;
let editorModel: EditorModelConfig = {};
// The user's model: editor user settings, else the environment, else the user config file; a workspace model only
// when approved in the editor (read at every question, so a change applies without re-creating the engine).
const userModel = createUserModelSource({
  // The editor's language model only when the user settings name none.
  explicit: () => editorModel.model ?? (editorModel.editorModel ? editorModelSettings(editorModel.editorModel) : undefined),
  trust: () => editorModel.approvedWorkspaceModel,
  approveHint: 'To use it, run "Context Oracle: Use the Workspace\'s Model" in a trusted workspace, or set contextOracle.model.* in your user settings.',
});

function applyModelConfig(raw: unknown): void {
  const { config, problem } = sanitizeModelConfig(raw);
  if (problem) logger.warn(problem);
  editorModel = config;
}

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

/** Server → client requests (the editor's language servers, for the NavigationProvider port). */
const sendClientRequest: SendClientRequest = (method, params, signal) => {
  const source = new CancellationTokenSource();
  signal?.addEventListener('abort', () => source.cancel(), { once: true });
  return connection.sendRequest<OracleClientRequests[typeof method]['result']>(method, params, source.token).finally(() => source.dispose());
};

const freshness = createFreshnessFeed(
  () => { try { return session?.engine(); } catch { return undefined; } },
  (stamp) => notify('contextOracle/freshness', stamp),
  logger,
);
let handlers: RequestHandlers | undefined;

/** Every request method, once: `satisfies` makes a method added to the protocol but missing here a compile error. */
const REQUEST_METHODS = Object.keys({
  'contextOracle/index': true, 'contextOracle/status': true, 'contextOracle/cancelIndex': true, 'contextOracle/search': true, 'contextOracle/ask': true,
  'contextOracle/conversation': true, 'contextOracle/definitions': true, 'contextOracle/references': true,
  'contextOracle/implementations': true, 'contextOracle/repoMap': true, 'contextOracle/bundle': true, 'contextOracle/why': true,
  'contextOracle/graphView': true, 'contextOracle/lint': true, 'contextOracle/starterGraph': true, 'contextOracle/docSync': true, 'contextOracle/context': true,
  'contextOracle/refIds': true, 'contextOracle/symbolAt': true, 'contextOracle/fileInsights': true, 'contextOracle/problems': true,
  'contextOracle/syncNow': true, 'contextOracle/freshness': true,
} satisfies Record<OracleRequestMethod, true>) as OracleRequestMethod[];

for (const method of REQUEST_METHODS) {
  connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
    try {
      if (!handlers) throw new Error('the server is not initialized');
      return await (handlers[method] as (p: unknown, s: AbortSignal) => Promise<unknown>)(params ?? {}, abortSignalFor(token));
    } catch (e) {
      throw toResponseError(e);
    }
  });
}

connection.onNotification('contextOracle/fileChanges', (params: unknown) => {
  freshness.changes(params).catch((e: unknown) => logger.warn(`queueing file changes failed: ${e instanceof Error ? e.message : String(e)}`));
});

connection.onNotification('contextOracle/modelConfig', (params: unknown) => applyModelConfig(params));

connection.onInitialize((params) => {
  const init = (params.initializationOptions ?? {}) as Partial<InitializationOptions>;
  settings = sanitizeSettings(init.settings);
  applyModelConfig(init.model);
  autoIndex = init.autoIndex !== false;
  const root = workspaceRoot(params);
  if ((params.workspaceFolders?.length ?? 0) > 1) logger.info(`several workspace folders are open; indexing the first, ${root}`);
  session = createIndexSession({
    root,
    settings,
    logger,
    createEngine: (r, s) => createNodeEngine({
      root: r, logger, assetRoot: __dirname, config: toEngineConfig(s), userModel, http: editorModelHttp(sendClientRequest, nodeHttpClient), ...(s.indexPath ? { indexPath: s.indexPath } : {}),
      ...(s.useEditorNavigation !== false ? { navigation: createEditorNavigation(sendClientRequest, logger) } : {}),
    }),
    notify: (activity) => {
      notify('contextOracle/activity', activity);
      if (activity.state === 'ready') freshness.publish().catch(() => undefined);
    },
  });
  handlers = createRequestHandlers(session, notify);
  logger.info(`server ${process.pid} on node ${process.version}: workspace ${root ?? '(none)'}, settings ${JSON.stringify(settings)}`);
  return { capabilities: { textDocumentSync: TextDocumentSyncKind.None }, serverInfo: { name: 'context-oracle' } };
});

connection.onInitialized(() => {
  const s = requireSession();
  if (s.activity().state === 'no-folder') {
    notify('contextOracle/activity', s.activity());
    return;
  }
  // What questions need is loaded once the index is ready, so the first question is not the slow one.
  const warm = (): Promise<void> => s.engine().warm();
  if (!autoIndex) {
    notify('contextOracle/activity', s.activity());
    setImmediate(() => { void warm(); });
    return;
  }
  // Background: `initialized` returns at once; the client learns about progress through notifications.
  setImmediate(() => { s.index({}).then(warm, () => undefined); }); // failures are logged and published by the session
});

connection.onDidChangeConfiguration((change: DidChangeConfigurationParams) => {
  const next = sanitizeSettings((change.settings as { contextOracle?: unknown } | undefined)?.contextOracle);
  if (!session || sameSettings(next, settings)) return;
  settings = next;
  logger.info(`settings changed to ${JSON.stringify(settings)}; re-creating the engine`);
  session.reconfigure(settings, autoIndex).catch(() => undefined);
});

connection.onShutdown(async () => {
  freshness.dispose();
  await session?.dispose();
  session = undefined;
});

connection.listen();
