/**
 * Narrow ports: everything the engine needs from the outside world. Each has a Node implementation in src/node and
 * an in-memory one for tests. Paths given to ports are absolute OS paths; paths in engine data are workspace-relative
 * POSIX paths.
 */
import type { UserModelConfig } from './oracle/types';
import type { ParseRequest, ParseResult } from './parse/types';

export interface FileStat {
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
}

export interface FileSystem {
  readDir(absPath: string): Promise<DirEntry[]>;
  stat(absPath: string): Promise<FileStat>;
  readFile(absPath: string): Promise<Uint8Array>;
  /** Resolves symlinks; used to keep the walk inside the workspace and to break symlink loops. */
  realPath(absPath: string): Promise<string>;
}

/**
 * One version of an index image, read at random: synchronous, because SQLite reads pages from inside a call
 * (store/paged-file.ts).
 */
export interface ImageFile {
  /** Bytes in the file. */
  readonly size: number;
  /** Reads into `into` from `position`; returns the bytes read (fewer only at the end of the file). */
  read(into: Uint8Array, position: number): number;
  close(): void;
}

/** A new image being written. Closing it before commit() deletes it. */
export interface ImageDraft extends ImageFile {
  write(bytes: Uint8Array, position: number): void;
  /** Syncs the draft and puts it in place of the current image, atomically. It stays open for reading. */
  commit(): Promise<void>;
}

/** Where the index lives on disk: atomic writes and one writer at a time. */
export interface IndexStorage {
  /**
   * The persisted image, open for reading, or undefined when there is none. Reads keep returning this version's
   * bytes after a writer replaces the image (an open file), until closed.
   */
  openImage(): Promise<ImageFile | undefined>;
  /** A new image, written in place of the current one when committed: a reader sees either the old bytes or the new ones. */
  createImage(): Promise<ImageDraft>;
  /**
   * The journal beside the image (commits appended since it was written, see store/journal.ts): its bytes from
   * `offset` to the end; empty when absent or shorter.
   */
  readJournal(offset: number): Promise<Uint8Array>;
  /** Cuts the journal to `at` bytes (0 = start it afresh), appends `bytes` and syncs them to disk. Call under the lock. */
  appendJournal(at: number, bytes: Uint8Array): Promise<void>;
  /** Current journal length in bytes (0 when absent); with stamp() it tells readers what changed. */
  journalSize(): Promise<number>;
  /** Move an unreadable index aside (kept for diagnosis); returns where it went. */
  quarantine(reason: string): Promise<string | undefined>;
  /** Take the single-writer lock; the returned function releases it. */
  lock(): Promise<() => Promise<void>>;
  /** Size of the persisted index in bytes (0 when absent). */
  size(): Promise<number>;
  /** Changes whenever the persisted image is replaced (e.g. mtime+size), not when the journal grows; undefined when absent. */
  stamp(): Promise<string | undefined>;
  /** Human-readable location, for status. */
  readonly location: string;
  /**
   * Derived data kept beside the index (the repo map's graph, repomap/map-snapshot.ts), read whole: undefined when
   * absent. Readers check it belongs to the index they read; it is never part of the index image.
   */
  readSidecar(name: string): Promise<Uint8Array | undefined>;
  /**
   * Replaces a sidecar atomically (temp file, rename): a reader sees the old bytes or the new ones. The bytes come in
   * parts, written one after the other, so that a large sidecar made of existing arrays is never copied into one.
   */
  writeSidecar(name: string, parts: readonly Uint8Array[]): Promise<void>;
}

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Clock {
  now(): number;
}

/** How much memory this process holds now: what the indexer's memory limit is checked against. */
export interface MemoryProbe {
  /** Resident set size in bytes (parse worker threads included: they live in this process). */
  residentBytes(): number;
}

/** Locates packaged assets (WASM grammars, the sql.js binary, query files). */
export interface AssetLocator {
  /** Absolute path of an asset shipped with the product, e.g. `grammars/tree-sitter-go.wasm`. */
  path(relative: string): string;
  readText(relative: string): Promise<string>;
  readBytes(relative: string): Promise<Uint8Array>;
  /**
   * The asset, a `.wasm` file, compiled already by another thread of the process, when the host shares one: threads
   * that instantiate one compiled module share its machine code (each function compiled and optimised once, not once
   * per thread). Absent or undefined: compile from `readBytes`.
   */
  compiledWasm?(relative: string): WasmModule | undefined;
}

/** A compiled `WebAssembly.Module`, opaque to the engine (core is built without the DOM or Node typings). */
export type WasmModule = object;

/** Runs tree-sitter parsing, in worker threads or in-process; the engine does not care which. */
export interface ParserHost {
  parse(requests: ParseRequest[], signal?: AbortSignal): Promise<ParseResult[]>;
  /**
   * Gets ready to parse about `files` files of about `chars` characters (absent: not known yet), starting the
   * threads that will, without waiting: a run calls it before its walk, so the start-up overlaps the walk instead of
   * following it, and again once it knows what it will parse, which may start more. Its parses use at least the
   * threads it asked for. Optional: a host that parses in-process has nothing to start.
   */
  warm?(files: number, chars?: number): void;
  /** Languages whose grammar failed to load, with the reason. */
  unavailable(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
}

/** A place in a workspace file: workspace-relative POSIX path, 1-based line and column; `endColumn` is exclusive. */
export interface NavLocation {
  path: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** One workspace-symbol answer: a named definition and where its name is. */
export interface NavSymbol {
  name: string;
  /** Free-form kind as the provider names it (`function`, `class`, `method`, …). */
  kind: string;
  container?: string;
  location: NavLocation;
}

/**
 * Exact navigation from the editor's own language servers (executeDefinitionProvider, executeReferenceProvider,
 * executeImplementationProvider, executeWorkspaceSymbolProvider). Optional: the extension's language server fills it;
 * the CLI, MCP server and tests run without it and the engine answers from the index. Providers return only locations
 * inside the workspace, already converted to 1-based lines and columns.
 */
export interface NavigationProvider {
  /** Definitions of the symbol whose name is at `at`. */
  definitions(at: NavLocation, signal?: AbortSignal): Promise<NavLocation[]>;
  /** References to the symbol whose name is at `at` (the declaration itself may be included). */
  references(at: NavLocation, signal?: AbortSignal): Promise<NavLocation[]>;
  /** Implementations of the interface, abstract class or method whose name is at `at`. */
  implementations(at: NavLocation, signal?: AbortSignal): Promise<NavLocation[]>;
  /** Workspace symbols matching `query` (providers may match fuzzily; the engine filters). */
  workspaceSymbols(query: string, signal?: AbortSignal): Promise<NavSymbol[]>;
}

/**
 * Runs the `git` command with the workspace root as working directory. Optional: without it (or without git, or
 * outside a repository) git-backed features report themselves unavailable and everything else still works.
 */
export interface Git {
  /** stdout of `git <args>`; rejects with git's message on a non-zero exit, when git is missing, or on abort. */
  run(args: string[], options?: { signal?: AbortSignal; maxBytes?: number }): Promise<string>;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body as it arrives (a streamed response yields chunks as the server sends them). */
  body: AsyncIterable<Uint8Array>;
}

/** Outbound HTTP for user-configured endpoints (chat completions, embeddings). Rejects on network failure. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** Reads named secrets such as API keys (environment variables in Node hosts); core never reads process.env. */
export interface Environment {
  get(name: string): string | undefined;
}

/**
 * The user's own model configuration, resolved by the host from user-level sources (editor user settings,
 * environment, user config file, flags). Read at every question, so a host may change it while running.
 */
export interface UserModelSource {
  current(): UserModelConfig;
}

/** Appends text to a file (creating folders and the file); used for the oracle's session logs. */
export interface WorkspaceWriter {
  append(absPath: string, text: string): Promise<void>;
}

/**
 * Small state files, read whole and replaced atomically: the workspace's `<root>/.context-oracle/` for what people
 * commit (doc↔code sync baselines), or the workspace's cache folder for caches (parsed graph, embeddings, conversations).
 */
export interface StateStore {
  /** The file's text, or undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  write(name: string, text: string): Promise<void>;
}

export interface EngineDeps {
  /** Absolute path of the workspace root. */
  root: string;
  fs: FileSystem;
  storage: IndexStorage;
  logger: Logger;
  clock: Clock;
  assets: AssetLocator;
  parser: ParserHost;
  /** Absent: the indexer's memory limit (EngineConfig.indexMemoryMb) is not checked. */
  memory?: MemoryProbe;
  /** The editor's language servers, when running inside one; absent answers come from the index. */
  navigation?: NavigationProvider;
  /** The `git` command; absent means git-backed features report themselves unavailable. */
  git?: Git;
  /** Outbound HTTP for configured model endpoints; absent means no model calls (extractive answers). */
  http?: HttpClient;
  env?: Environment;
  /** The user's model configuration (read at every question); absent: only a model passed with the call is used. */
  userModel?: UserModelSource;
  /** Appends oracle session logs (in the workspace or the cache folder); absent means nothing is logged. */
  writer?: WorkspaceWriter;
  /** Sync baselines, in the workspace (people commit them); absent means they live in memory for the engine's lifetime. */
  state?: StateStore;
  /**
   * The workspace's cache folder outside the workspace (parsed graph, embeddings, conversations), given by the host;
   * absent means these live in memory for the engine's lifetime.
   */
  cache?: StateStore;
  /**
   * Absolute folder for the oracle's session logs when they are not committed to the workspace (the host's cache
   * folder); absent means they go to the workspace's `.context-oracle/threads/`.
   */
  sessionLogDir?: string;
}

export const nullLogger: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
