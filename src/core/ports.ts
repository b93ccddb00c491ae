/**
 * Narrow ports: everything the engine needs from the outside world. Each has a Node implementation in src/node and
 * an in-memory one for tests. Paths given to ports are absolute OS paths; paths in engine data are workspace-relative
 * POSIX paths.
 */
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

/** Where the index lives on disk: atomic writes and one writer at a time. */
export interface IndexStorage {
  /** The bytes of the persisted index, or undefined when there is none. */
  read(): Promise<Uint8Array | undefined>;
  /** Replace the index atomically: a reader sees either the old bytes or the new ones. */
  write(bytes: Uint8Array): Promise<void>;
  /** Move an unreadable index aside (kept for diagnosis); returns where it went. */
  quarantine(reason: string): Promise<string | undefined>;
  /** Take the single-writer lock; the returned function releases it. */
  lock(): Promise<() => Promise<void>>;
  /** Size of the persisted index in bytes (0 when absent). */
  size(): Promise<number>;
  /** Changes whenever the persisted index is replaced (e.g. mtime+size); undefined when absent. */
  stamp(): Promise<string | undefined>;
  /** Human-readable location, for status. */
  readonly location: string;
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

/** Locates packaged assets (WASM grammars, the sql.js binary, query files). */
export interface AssetLocator {
  /** Absolute path of an asset shipped with the product, e.g. `grammars/tree-sitter-go.wasm`. */
  path(relative: string): string;
  readText(relative: string): Promise<string>;
  readBytes(relative: string): Promise<Uint8Array>;
}

/** Runs tree-sitter parsing, in worker threads or in-process; the engine does not care which. */
export interface ParserHost {
  parse(requests: ParseRequest[], signal?: AbortSignal): Promise<ParseResult[]>;
  /** Languages whose grammar failed to load, with the reason. */
  unavailable(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
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
}

export const nullLogger: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
