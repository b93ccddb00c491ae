/**
 * The language server's custom protocol, declared once and used by both ends: the extension (client) sends the
 * requests and receives the notifications; src/server implements a handler for every request (a mapped type, so a
 * missing handler fails to compile). Payloads are the engine's plain DTOs; nothing here depends on an LSP library.
 */
import type {
  AskEvent, AskResult, BundleResult, ChangeNotice, ChatMessage, ContextResult, ConversationView, DefinitionsResult,
  EngineErrorCode, FreshnessStamp, GraphView, ImplementationsResult, IndexOutcome, IndexProgress, IndexStatus,
  LintReport, ModelSettings, NavLocation, NavSymbol, ReferencesResult, RepoMap, SearchHit, SearchOptions,
  StarterGraphProposal, SyncOutcome, WhyResult,
} from '../core';
import type { FileInsights, ProblemsResult, RefIdSuggestion, SymbolAt } from './editor';

/** Settings the client hands the server (`initializationOptions` and `workspace/didChangeConfiguration`). */
export interface ServerSettings {
  exclude?: string[];
  maxFileBytes?: number;
  indexMemoryMb?: number;
  respectGitignore?: boolean;
  /** Empty or absent: the workspace's folder in the user's cache (src/node/cache-dir.ts); relative paths resolve against the workspace. */
  indexPath?: string;
  /** Ask the editor's language servers for exact definitions and references (the client answers `contextOracle/nav/*`). */
  useEditorNavigation?: boolean;
  /** Replace secrets found in code in everything the engine returns or sends to a model (default true). */
  redactSecrets?: boolean;
  /** Where the oracle's session logs go: the cache folder (default) or the workspace's `.context-oracle/threads/`. */
  sessionLogs?: 'cache' | 'workspace';
}

/**
 * The user's model as the editor knows it, sent at start and on every change (`contextOracle/modelConfig`). Kept
 * apart from ServerSettings, which the server also receives merged with workspace settings: a workspace must never
 * choose where the user's key and code go.
 */
export interface EditorModelConfig {
  /** From `contextOracle.model.*` in the user's (global) settings only; absent: none there. */
  model?: ModelSettings;
  /** workspaceModelFingerprint of the `.context-oracle/oracle.json` model the user approved in this trusted workspace. */
  approvedWorkspaceModel?: string;
  /**
   * The name of the editor's own language model (VS Code's Language Model API, e.g. a Copilot model) the user chose
   * for the panel; used when `model` is absent. The server asks the client to run it (`contextOracle/lm/chat`).
   */
  editorModel?: string;
}

export interface InitializationOptions {
  settings: ServerSettings;
  model?: EditorModelConfig;
  /** False in an untrusted workspace: the server answers requests but never indexes on its own. */
  autoIndex: boolean;
}

/** What the server is doing with the index right now. */
export type IndexActivityState = 'starting' | 'indexing' | 'ready' | 'error' | 'no-folder';

export interface IndexActivity {
  state: IndexActivityState;
  /** While indexing: the last progress report. */
  progress?: IndexProgress;
  /** Whether the running (or last) run rebuilds from scratch. */
  full?: boolean;
  /** State `error`: what went wrong, and the engine's error code when it was an EngineError. */
  error?: { message: string; code?: EngineErrorCode };
  /** With several workspace folders: each folder's own state (the fields above add them up). */
  folders?: FolderActivity[];
}

/** One workspace folder's index activity, when several are open. */
export interface FolderActivity {
  name: string;
  state: IndexActivityState;
  progress?: IndexProgress;
  /** Files in its index as of the last finished run. */
  files?: number;
  error?: string;
}

export interface IndexParams {
  /** Rebuild from scratch instead of updating incrementally. */
  full?: boolean;
}

export interface SearchParams extends SearchOptions {
  query: string;
}

export interface StatusResult {
  index: IndexStatus;
  activity: IndexActivity;
}

/** The last event of an ask: the result and the time it took. */
export type AskDone = Extract<AskEvent, { type: 'done' }>;

export interface AskParams {
  /** Chosen by the client; every `contextOracle/askEvent` of this ask carries it. */
  id: string;
  question: string;
  explain?: boolean;
  /** Conversation the exchange belongs to (the panel keeps one per conversation). */
  session?: string;
  /** Sources to ask (code, docs, git, threads); names the server does not know are left out. */
  sources?: string[];
  maxTokens?: number;
}

export interface SymbolParams {
  symbol: string;
  limit?: number;
}

export interface RepoMapParams {
  maxTokens?: number;
  scope?: string;
  mentionedFiles?: string[];
  mentionedIdents?: string[];
}

export interface BundleParams {
  refIds: string[];
  maxTokens?: number;
  depth?: number;
}

export interface WhyParams {
  refId: string;
  depth?: number;
  reverse?: boolean;
}

export interface ContextParams {
  question: string;
  maxTokens?: number;
  format?: 'mu' | 'json' | 'markdown';
}

type NoParams = Record<string, never>;

/** Requests from client to server: method → params and result. */
export interface OracleRequests {
  /** Index now (waits for a run already under way, then runs); cancellable. */
  'contextOracle/index': { params: IndexParams; result: IndexOutcome };
  'contextOracle/status': { params: NoParams; result: StatusResult };
  /** Stop every index run under way (the status bar's cancel); the previous index is kept. */
  'contextOracle/cancelIndex': { params: NoParams; result: { cancelled: number } };
  'contextOracle/search': { params: SearchParams; result: SearchHit[] };
  /**
   * The oracle; its events stream as `contextOracle/askEvent` notifications, all but the last: the `done` event, which
   * carries the result, is the response (so the result crosses once). Cancelling the request aborts it.
   */
  'contextOracle/ask': { params: AskParams; result: AskDone };
  'contextOracle/conversation': { params: { session: string }; result: ConversationView | null };
  'contextOracle/definitions': { params: SymbolParams; result: DefinitionsResult };
  'contextOracle/references': { params: SymbolParams; result: ReferencesResult };
  'contextOracle/implementations': { params: SymbolParams; result: ImplementationsResult };
  'contextOracle/repoMap': { params: RepoMapParams; result: RepoMap };
  'contextOracle/bundle': { params: BundleParams; result: BundleResult };
  'contextOracle/why': { params: WhyParams; result: WhyResult };
  'contextOracle/graphView': { params: { refIds?: string[]; depth?: number }; result: GraphView };
  'contextOracle/lint': { params: NoParams; result: LintReport };
  /** A starter graph proposed from the index, for a workspace with no declared graph (written only by the host, on a click). */
  'contextOracle/starterGraph': { params: NoParams; result: StarterGraphProposal };
  /** Doc↔code sync; `check` records nothing, `mark` brings pairs up to date. */
  'contextOracle/docSync': { params: { check?: boolean; mark?: string[] }; result: SyncOutcome };
  'contextOracle/context': { params: ContextParams; result: ContextResult };
  /** ref_ids for a quick pick: declared nodes, then files and symbols matching `query`. */
  'contextOracle/refIds': { params: { query?: string; limit?: number }; result: RefIdSuggestion[] };
  /** The innermost indexed symbol around a 1-based line of a file (for Why at the cursor). */
  'contextOracle/symbolAt': { params: { path: string; line: number }; result: SymbolAt | null };
  /** Annotated symbols of a file for hovers and CodeLens; `text` is the editor's copy of the file. */
  'contextOracle/fileInsights': { params: { path: string; text: string }; result: FileInsights };
  /** Stale doc sections and rule violations, for the Problems view. */
  'contextOracle/problems': { params: NoParams; result: ProblemsResult };
  /** Commit every queued change now. */
  'contextOracle/syncNow': { params: NoParams; result: FreshnessStamp };
  'contextOracle/freshness': { params: NoParams; result: FreshnessStamp };
  /** The model questions go to now (the panel's header names it), or none: answers come from the evidence alone. */
  'contextOracle/model': { params: NoParams; result: ModelInUse };
}

export interface ModelInUse {
  /** The model's name; absent: no model. */
  model?: string;
  /** Where it comes from: the user's own configuration, the editor's language models, or the approved workspace file. */
  origin?: 'user' | 'editor' | 'workspace';
}

/** Notifications from server to client: method → params. */
export interface OracleNotifications {
  /** Every change of activity (start, throttled progress, end). `status` is set when a run has just finished. */
  'contextOracle/activity': IndexActivity & { status?: IndexStatus };
  /** One event of the ask whose request carried `id`. */
  'contextOracle/askEvent': { id: string; event: AskEvent };
  /** The change queue changed (files noted or committed). */
  'contextOracle/freshness': FreshnessStamp;
}

/** Notifications from client to server. */
export interface OracleClientNotifications {
  /** Saved or deleted files (workspace-relative); unsaved edits are never sent. */
  'contextOracle/fileChanges': { changes: ChangeNotice[] };
  /** The user's model settings or the workspace model approval changed. */
  'contextOracle/modelConfig': EditorModelConfig;
  /** A part of the editor model's answer for the `contextOracle/lm/chat` request that opened `stream`. */
  'contextOracle/lm/chunk': { stream: string; text: string };
}

/**
 * Requests from server to client: the engine's NavigationProvider port, answered by the editor's own language servers
 * (vscode.executeDefinitionProvider and friends). Locations are workspace-relative with 1-based lines and columns.
 */
export interface OracleClientRequests {
  'contextOracle/nav/definitions': { params: { at: NavLocation }; result: NavLocation[] };
  'contextOracle/nav/references': { params: { at: NavLocation }; result: NavLocation[] };
  'contextOracle/nav/implementations': { params: { at: NavLocation }; result: NavLocation[] };
  'contextOracle/nav/workspaceSymbols': { params: { query: string }; result: NavSymbol[] };
  /**
   * Runs the editor's language model `model` (by name) on the messages. With `stream`, each part of the answer goes
   * to the server as a `contextOracle/lm/chunk` notification as the model reports it, before this request's answer,
   * which holds the whole text.
   */
  'contextOracle/lm/chat': { params: { model: string; messages: ChatMessage[]; maxTokens?: number; stream?: string }; result: { text: string } };
}

export type OracleRequestMethod = keyof OracleRequests;
export type OracleNotificationMethod = keyof OracleNotifications;
export type OracleClientNotificationMethod = keyof OracleClientNotifications;
export type OracleClientRequestMethod = keyof OracleClientRequests;

export const OracleMethods = {
  index: 'contextOracle/index',
  status: 'contextOracle/status',
  search: 'contextOracle/search',
  activity: 'contextOracle/activity',
  askEvent: 'contextOracle/askEvent',
  freshness: 'contextOracle/freshness',
  fileChanges: 'contextOracle/fileChanges',
} as const satisfies Record<string, OracleRequestMethod | OracleNotificationMethod | OracleClientNotificationMethod>;

/** Client-request methods, for registering every handler (the client's table is a mapped type over these). */
export const CLIENT_REQUEST_METHODS: readonly OracleClientRequestMethod[] = [
  'contextOracle/nav/definitions', 'contextOracle/nav/references', 'contextOracle/nav/implementations', 'contextOracle/nav/workspaceSymbols',
  'contextOracle/lm/chat',
];

/** `ResponseError.data` for errors raised by the engine: hosts turn `code` into their own message. */
export interface OracleErrorData {
  code: EngineErrorCode;
  detail?: Record<string, unknown>;
}

/**
 * JSON-RPC error codes for engine errors. Cancellation uses LSP's RequestCancelled so clients treat it as such;
 * bad input uses InvalidParams; every other engine error is a server-defined error in the reserved range.
 */
export const ENGINE_ERROR_RPC_CODES: Record<EngineErrorCode, number> = {
  cancelled: -32800,
  invalid_input: -32602,
  required: -32602,
  not_found: -32001,
  not_initialized: -32002,
  index_corrupt: -32003,
  index_locked: -32004,
  grammar_unavailable: -32005,
  outside_workspace: -32006,
  upstream_failed: -32007,
  no_space: -32008,
  permission_denied: -32009,
  write_failed: -32010,
  index_incompatible: -32011,
  internal: -32603,
};
