/**
 * The language server: hosts the engine in its own process, off the extension host. Composition root for this host.
 * Indexing starts after `initialized` and never blocks `initialize`; progress goes to the client as
 * `contextOracle/activity` notifications; the custom requests are declared in src/protocol/language-server.ts.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource, createConnection, ProposedFeatures, TextDocumentSyncKind, type CancellationToken,
  type DidChangeConfigurationParams, type InitializeParams,
} from 'vscode-languageserver/node';
import { createNodeEngine } from '../node/node-engine';
import { nodeHttpClient } from '../node/http';
import { chooseModel, type FreshnessStamp, type ModelSettings, parseSettings, SETTINGS_FILE } from '../core';
import type {
  EditorModelConfig, InitializationOptions, ModelInUse, OracleClientRequests, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, ServerSettings,
} from '../protocol/language-server';
import { createConnectionLogger } from './connection-logger';
import { EDITOR_MODEL_BASE_URL, editorModelHttp, editorModelSettings, LmStreams } from './editor-model-http';
import { createEditorNavigation, type SendClientRequest } from './editor-navigation';
import { combineActivity, combineFreshness, type FolderReport } from './combined-activity';
import { createFreshnessFeed, type FreshnessFeed } from './freshness-feed';
import { createIndexSession } from './index-session';
import { createRequestHandlers } from './request-handlers';
import { type ServedFolder, WorkspaceFolders } from './workspace-folders';
import { toResponseError } from './response-errors';
import { sameSettings, sanitizeModelConfig, sanitizeSettings, toEngineConfig } from './settings';
import { createUserModelSource } from '../node/user-config';
import { applyHostHeapPolicy } from '../node/heap-policy';

applyHostHeapPolicy();

const connection = createConnection(ProposedFeatures.all);
const logger = createConnectionLogger(connection.console);
const folders = new WorkspaceFolders();
/** Parts of the editor model's answers under way (see editor-model-http.ts). */
const lmStreams = new LmStreams();
/** Per folder: its change feed, and its last activity and freshness (combined into one for the client). */
const feeds = new Map<string, FreshnessFeed>();
const lastActivity = new Map<string, FolderReport>();
const lastStamp = new Map<string, FreshnessStamp>();
let initialized = false;
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

/** The client's local workspace folders (name and absolute root); folders elsewhere (remote schemes) are not indexed. */
function localFolders(list: ReadonlyArray<{ uri: string; name: string }>): Array<{ name: string; root: string }> {
  const out: Array<{ name: string; root: string }> = [];
  for (const f of list) {
    if (!f.uri.startsWith('file:')) {
      logger.warn(`workspace folder ${f.uri} is not on the local file system; not indexing it`);
      continue;
    }
    out.push({ name: f.name, root: fileURLToPath(f.uri) });
  }
  return out;
}

function initialFolders(params: InitializeParams): Array<{ name: string; root: string }> {
  if (params.workspaceFolders?.length) return localFolders(params.workspaceFolders);
  const uri = params.rootUri ?? undefined;
  if (uri) return localFolders([{ uri, name: basename(fileURLToPath(uri)) }]);
  return params.rootPath ? [{ name: basename(params.rootPath), root: params.rootPath }] : [];
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

function publishActivity(): void {
  notify('contextOracle/activity', combineActivity(folders.list().map((f) => ({ name: f.name, activity: lastActivity.get(f.name) ?? f.session.activity() }))));
}

function publishFreshness(): void {
  const stamps = folders.list().map((f) => lastStamp.get(f.name)).filter((s): s is FreshnessStamp => !!s);
  if (stamps.length) notify('contextOracle/freshness', combineFreshness(stamps));
}

/**
 * Server → client requests for one folder's engine: its paths go out in the client's form and only answers inside
 * the folder come back (a definition in another folder is that folder's engine's business).
 */
function folderClientRequests(name: string): SendClientRequest {
  const outPath = (p: string): string => (folders.several() ? `${name}/${p}` : p);
  const inPath = (p: string): string | undefined => (!folders.several() ? p : p.startsWith(`${name}/`) ? p.slice(name.length + 1) : undefined);
  return (async (method, params, signal) => {
    const sent = 'at' in params ? { ...params, at: { ...params.at, path: outPath(params.at.path) } } : params;
    const result = await sendClientRequest(method, sent as never, signal);
    if (!Array.isArray(result)) return result;
    const local = [];
    for (const r of result as Array<{ path?: string; location?: { path: string } }>) {
      const loc = 'location' in r && r.location ? r.location : r;
      const p = inPath(loc.path!);
      if (p === undefined) continue;
      local.push('location' in r && r.location ? { ...r, location: { ...r.location, path: p } } : { ...r, path: p });
    }
    return local;
  }) as SendClientRequest;
}

/** Starts a folder's engine (and its first run, unless `index` is false). */
function openFolder(spec: { name: string; root: string }, index: boolean): ServedFolder {
  const session = createIndexSession({
    root: spec.root,
    settings,
    logger,
    createEngine: (r, s) => createNodeEngine({
      root: r, logger, assetRoot: __dirname, config: toEngineConfig(s), userModel, http: editorModelHttp(sendClientRequest, nodeHttpClient, lmStreams), ...(s.indexPath ? { indexPath: s.indexPath } : {}),
      ...(s.useEditorNavigation !== false ? { navigation: createEditorNavigation(folderClientRequests(spec.name), logger) } : {}),
    }),
    notify: (activity) => {
      lastActivity.set(spec.name, activity);
      publishActivity();
      if (activity.state === 'ready') feeds.get(spec.name)?.publish().catch(() => undefined);
    },
  });
  const folder: ServedFolder = { ...spec, session };
  folders.add(folder);
  feeds.set(spec.name, createFreshnessFeed(
    () => { try { return session.engine(); } catch { return undefined; } },
    (stamp) => {
      lastStamp.set(spec.name, { ...stamp, queued: stamp.queued.map((p) => folders.outPath(folder, p)) });
      publishFreshness();
    },
    logger,
  ));
  if (index) startFolder(folder);
  return folder;
}

function startFolder(folder: ServedFolder): void {
  // What questions need is loaded once the index is ready, so the first question is not the slow one.
  const warm = (): Promise<void> => folder.session.engine().warm();
  if (!autoIndex) {
    publishActivity();
    setImmediate(() => { void warm().catch(() => undefined); });
    return;
  }
  // Background: the client learns about progress through notifications; failures are logged and published by the session.
  setImmediate(() => { folder.session.index({}).then(warm, () => undefined); });
}

async function closeFolder(name: string): Promise<void> {
  const folder = folders.remove(name);
  feeds.get(name)?.dispose();
  feeds.delete(name);
  lastActivity.delete(name);
  lastStamp.delete(name);
  if (!folder) return;
  folder.session.cancel();
  await folder.session.dispose();
  logger.info(`workspace folder ${name} closed; its engine stopped`);
  publishActivity();
  publishFreshness();
}

/** The model the next question uses: the same choice the engine makes (the user's, else an approved workspace one). */
async function modelInUse(): Promise<ModelInUse> {
  const user = userModel.current();
  let workspace: ModelSettings | undefined;
  const root = folders.list()[0]?.root;
  if (!user.model && root) {
    try {
      workspace = parseSettings(JSON.parse(await readFile(join(root, SETTINGS_FILE), 'utf8'))).model;
    } catch {
      workspace = undefined; // no file or not readable: no workspace model
    }
  }
  const choice = chooseModel(undefined, user, workspace);
  if (!choice.model) return {};
  return { model: choice.model.model, origin: choice.origin === 'workspace' ? 'workspace' : choice.model.baseUrl === EDITOR_MODEL_BASE_URL ? 'editor' : 'user' };
}

const handlers = createRequestHandlers(folders, notify, modelInUse);

/** Every request method, once: `satisfies` makes a method added to the protocol but missing here a compile error. */
const REQUEST_METHODS = Object.keys({
  'contextOracle/index': true, 'contextOracle/status': true, 'contextOracle/cancelIndex': true, 'contextOracle/search': true, 'contextOracle/ask': true,
  'contextOracle/conversation': true, 'contextOracle/definitions': true, 'contextOracle/references': true,
  'contextOracle/implementations': true, 'contextOracle/repoMap': true, 'contextOracle/bundle': true, 'contextOracle/why': true,
  'contextOracle/graphView': true, 'contextOracle/lint': true, 'contextOracle/starterGraph': true, 'contextOracle/docSync': true, 'contextOracle/context': true,
  'contextOracle/refIds': true, 'contextOracle/symbolAt': true, 'contextOracle/fileInsights': true, 'contextOracle/problems': true,
  'contextOracle/syncNow': true, 'contextOracle/freshness': true, 'contextOracle/model': true,
} satisfies Record<OracleRequestMethod, true>) as OracleRequestMethod[];

for (const method of REQUEST_METHODS) {
  connection.onRequest(method, async (params: unknown, token: CancellationToken) => {
    try {
      return await (handlers[method] as (p: unknown, s: AbortSignal) => Promise<unknown>)(params ?? {}, abortSignalFor(token));
    } catch (e) {
      throw toResponseError(e);
    }
  });
}

connection.onNotification('contextOracle/fileChanges', (params: unknown) => {
  // Each folder's feed gets its own changes, paths inside the folder (the feed checks them again).
  const byFolder = new Map<ServedFolder, unknown[]>();
  const list = (params as { changes?: unknown } | undefined)?.changes;
  for (const c of Array.isArray(list) ? list as Array<{ path?: unknown }> : []) {
    if (typeof c?.path !== 'string' || !folders.list().length) continue;
    const { folder, path } = folders.route(c.path);
    if (folders.several() && path === c.path) continue; // names no folder
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), { ...c, path }]);
  }
  for (const [folder, changes] of byFolder) {
    feeds.get(folder.name)?.changes({ changes }).catch((e: unknown) => logger.warn(`queueing file changes failed: ${e instanceof Error ? e.message : String(e)}`));
  }
});

connection.onNotification('contextOracle/modelConfig', (params: unknown) => applyModelConfig(params));

connection.onNotification('contextOracle/lm/chunk', (params: unknown) => lmStreams.chunk(params));

connection.onInitialize((params) => {
  const init = (params.initializationOptions ?? {}) as Partial<InitializationOptions>;
  settings = sanitizeSettings(init.settings);
  applyModelConfig(init.model);
  autoIndex = init.autoIndex !== false;
  const specs = initialFolders(params);
  for (const spec of specs) openFolder(spec, false);
  logger.info(`server ${process.pid} on node ${process.version}: ${specs.length ? `workspace folders ${specs.map((f) => `${f.name} (${f.root})`).join(', ')}` : 'no workspace folder'}, settings ${JSON.stringify(settings)}`);
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.None,
      // Folders added to or removed from the window start and stop their engine.
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'context-oracle' },
  };
});

connection.onInitialized(() => {
  initialized = true;
  if (!folders.list().length) {
    publishActivity();
    return;
  }
  for (const folder of folders.list()) startFolder(folder);
  connection.workspace.onDidChangeWorkspaceFolders((change) => {
    void (async () => {
      for (const f of change.removed) await closeFolder(f.name);
      for (const spec of localFolders(change.added)) {
        if (folders.byName(spec.name)) continue;
        logger.info(`workspace folder ${spec.name} (${spec.root}) added; starting its engine`);
        openFolder(spec, initialized);
      }
      publishActivity();
    })().catch((e: unknown) => logger.error(`workspace folder change failed: ${e instanceof Error ? e.message : String(e)}`));
  });
});

connection.onDidChangeConfiguration((change: DidChangeConfigurationParams) => {
  const next = sanitizeSettings((change.settings as { contextOracle?: unknown } | undefined)?.contextOracle);
  if (sameSettings(next, settings)) return;
  settings = next;
  logger.info(`settings changed to ${JSON.stringify(settings)}; re-creating the engines`);
  for (const f of folders.list()) f.session.reconfigure(settings, autoIndex).catch(() => undefined);
});

connection.onShutdown(async () => {
  for (const f of [...folders.list()]) await closeFolder(f.name);
});

connection.listen();
