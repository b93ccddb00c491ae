/**
 * The one typed configuration. package.json `contributes.configuration` is a projection of SETTINGS
 * (a test checks they agree); CLI flags override the same fields.
 */
export interface EngineConfig {
  /** Extra glob patterns (workspace-relative) never indexed. */
  exclude: string[];
  /** Files larger than this are skipped (bytes). */
  maxFileBytes: number;
  /** Honour .gitignore files (root and nested). */
  respectGitignore: boolean;
  /** Files parsed per batch handed to the parser host; also the unit of progress. */
  batchSize: number;
  /**
   * Resident memory (MB) indexing keeps under: above three quarters of it batches shrink (down to one file) and only
   * one is in flight, so a large workspace indexes slower instead of failing. 0: no limit.
   */
  indexMemoryMb: number;
  /**
   * Largest journal of small commits kept beside the index image before a commit writes a whole new image.
   * Unset: a sixteenth of the image, between 2 and 16 MiB (replaying the journal is part of every open).
   */
  journalMaxBytes?: number;
  /**
   * Replace well-known secret shapes (cloud keys, tokens, private keys, passwords) in everything the engine returns
   * and in every request it sends to a model or embeddings endpoint (src/core/redact).
   */
  redactSecrets: boolean;
  /**
   * Where the oracle's session logs go: the host's cache folder (default) or `.context-oracle/threads/` for teams
   * that commit them (the workspace's oracle.json `"sessionLogs": "workspace"` does the same).
   */
  sessionLogs: SessionLogPlace;
}

export type SessionLogPlace = 'cache' | 'workspace';

export const DEFAULT_CONFIG: EngineConfig = {
  exclude: [],
  maxFileBytes: 1024 * 1024,
  respectGitignore: true,
  batchSize: 48,
  indexMemoryMb: 1024,
  redactSecrets: true,
  sessionLogs: 'cache',
};

/** Always skipped: version-control folders, dependency trees and our own index. */
export const BUILTIN_EXCLUDES = ['.git', '.hg', '.svn', 'node_modules', '.context-oracle', 'bower_components', '__pycache__', '.venv', '.tox'];

export interface SettingSpec {
  key: string;
  type: 'array' | 'number' | 'boolean' | 'string';
  default: unknown;
  description: string;
  /** VS Code setting scope; `application` settings can only be set in user settings, never by a workspace. */
  scope?: 'application';
}

/** Settings exposed in VS Code under `contextOracle.*`. */
export const SETTINGS: readonly SettingSpec[] = [
  { key: 'exclude', type: 'array', default: DEFAULT_CONFIG.exclude, description: 'Glob patterns (relative to the workspace folder) that are never indexed, in addition to .gitignore.' },
  { key: 'maxFileBytes', type: 'number', default: DEFAULT_CONFIG.maxFileBytes, description: 'Files larger than this many bytes are skipped.' },
  { key: 'respectGitignore', type: 'boolean', default: DEFAULT_CONFIG.respectGitignore, description: 'Skip files matched by .gitignore files.' },
  { key: 'indexPath', type: 'string', default: '', description: "Where the index is stored; empty means the user's cache folder (<cache>/context-oracle/<workspace>-<hash>/index.db), shared by the editor, the CLI and the MCP server." },
  { key: 'indexMemoryMb', type: 'number', default: DEFAULT_CONFIG.indexMemoryMb, description: 'Memory (MB) indexing stays under: near the limit it parses smaller batches, slower but never failing. Below ~400 MB the parse workers and SQLite\'s cache alone exceed it; a run that goes over says so. 0 means no limit.' },
  { key: 'sessionLogs', type: 'string', default: DEFAULT_CONFIG.sessionLogs, description: 'Where the oracle logs its sessions: "cache" (the user\'s cache folder) or "workspace" (.context-oracle/threads/, for teams that commit them).' },
  { key: 'redactSecrets', type: 'boolean', default: DEFAULT_CONFIG.redactSecrets, description: 'Replace secrets found in code (cloud keys, tokens, private keys, passwords) in answers, context and anything sent to a model.' },
];
