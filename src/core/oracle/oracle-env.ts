/** Everything one oracle call needs from the engine: ports, code intelligence, and the engine-lifetime caches. */
import type { Clock, Environment, FileSystem, Git, HttpClient, Logger, UserModelSource, WorkspaceWriter } from '../ports';
import type { CodeRetrieval } from './code-retrieval';
import type { SessionLogPlace } from '../config';
import type { ConversationStore } from './conversation';
import type { FileCache } from './file-cache';
import type { MarkdownCache } from './markdown-files';
import type { GitLogCache } from './sources/git';

export interface OracleEnv {
  root: string;
  fs: FileSystem;
  logger: Logger;
  clock: Clock;
  git?: Git;
  http?: HttpClient;
  env?: Environment;
  userModel?: UserModelSource;
  /** Workspace models already said to be ignored (the note is given once per engine, not on every answer). */
  ignoredNoted: Set<string>;
  writer?: WorkspaceWriter;
  /** Absolute folder for session logs outside the workspace (the cache folder); absent: the workspace's threads. */
  sessionLogDir?: string;
  /** The host's choice (setting, flag); `workspace` or the workspace's oracle.json puts logs in `.context-oracle/threads/`. */
  sessionLogs: SessionLogPlace;
  /** This question's code retrieval (bound to its index request, see store/index-request.ts). */
  code: CodeRetrieval;
  markdown: MarkdownCache;
  gitLog: GitLogCache;
  conversations: ConversationStore;
  /** A fresh per-question file cache (excerpts and citations are cut from one consistent read). */
  files(): FileCache;
  exclude: string[];
  respectGitignore: boolean;
}
