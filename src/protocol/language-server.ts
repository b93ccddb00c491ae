/**
 * The language server's custom protocol, declared once and used by both ends: the extension (client) sends the
 * requests and receives the notifications; src/server implements a handler for every request (a mapped type, so a
 * missing handler fails to compile). Payloads are the engine's plain DTOs; nothing here depends on an LSP library.
 */
import type { EngineErrorCode } from '../core/errors';
import type { IndexOutcome, IndexProgress, IndexStatus, SearchHit, SearchOptions } from '../core/model';

/** Settings the client hands the server (`initializationOptions` and `workspace/didChangeConfiguration`). */
export interface ServerSettings {
  exclude?: string[];
  maxFileBytes?: number;
  respectGitignore?: boolean;
  /** Empty or absent: `<workspace>/.context-oracle/index.db`; relative paths resolve against the workspace. */
  indexPath?: string;
}

export interface InitializationOptions {
  settings: ServerSettings;
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

/** Requests from client to server: method → params and result. */
export interface OracleRequests {
  /** Index now (waits for a run already under way, then runs); cancellable. */
  'contextOracle/index': { params: IndexParams; result: IndexOutcome };
  'contextOracle/status': { params: Record<string, never>; result: StatusResult };
  'contextOracle/search': { params: SearchParams; result: SearchHit[] };
}

/** Notifications from server to client: method → params. */
export interface OracleNotifications {
  /** Every change of activity (start, throttled progress, end). `status` is set when a run has just finished. */
  'contextOracle/activity': IndexActivity & { status?: IndexStatus };
}

export type OracleRequestMethod = keyof OracleRequests;
export type OracleNotificationMethod = keyof OracleNotifications;

export const OracleMethods = {
  index: 'contextOracle/index',
  status: 'contextOracle/status',
  search: 'contextOracle/search',
  activity: 'contextOracle/activity',
} as const satisfies Record<string, OracleRequestMethod | OracleNotificationMethod>;

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
  internal: -32603,
};
