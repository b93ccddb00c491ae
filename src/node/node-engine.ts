/** Composition for Node hosts (CLI, MCP server, language server): real ports around createEngine. */
import { isAbsolute, join, resolve } from 'node:path';
import {
  createEngine, createInProcessParserHost, type Engine, type EngineConfig, type HttpClient, type Logger,
  type NavigationProvider, type ParserHost, type UserModelSource,
} from '../core';
import { createNodeAssetLocator } from './assets';
import { nodeFileSystem } from './file-system';
import { createFileIndexStorage } from './index-storage';
import { createWorkerParserHost } from './worker-parser-host';
import { createNodeGit } from './git';
import { nodeHttpClient } from './http';
import { nodeWorkspaceWriter } from './workspace-writer';
import { createStateStore } from './state-store';
import { migrateWorkspaceIndex, workspaceCacheDir } from './cache-dir';

export interface NodeEngineOptions {
  root: string;
  /** Index file; default index.db in the workspace's cache folder (cache-dir.ts). */
  indexPath?: string;
  /** The workspace's cache folder; default workspaceCacheDir(root) in the user's cache. */
  cacheDir?: string;
  logger: Logger;
  config?: Partial<EngineConfig>;
  /** Where dist/ assets are; default next to the running bundle. */
  assetRoot?: string;
  /** Parse on worker threads (default) or in-process. */
  workers?: number | false;
  /** The editor's language servers (the language server host passes one); absent: answers come from the index. */
  navigation?: NavigationProvider;
  /** The user's model configuration (see user-config.ts); absent: only a model passed with a question is used. */
  userModel?: UserModelSource;
  /** Outbound HTTP for model endpoints; default Node's fetch (the language server routes the editor's model through it). */
  http?: HttpClient;
}

export function defaultIndexPath(root: string): string {
  return join(workspaceCacheDir(root), 'index.db');
}

/**
 * Nothing is written into the workspace unless people asked for it: the index, caches, conversations and session
 * logs go to the workspace's cache folder; `.context-oracle/` keeps what people commit (graph, rules, sync baselines).
 */
export function createNodeEngine(options: NodeEngineOptions): Engine {
  const root = resolve(options.root);
  const assetRoot = options.assetRoot ?? __dirname;
  const assets = createNodeAssetLocator(assetRoot);
  const cacheDir = options.cacheDir ?? workspaceCacheDir(root);
  let indexPath: string;
  if (options.indexPath) indexPath = isAbsolute(options.indexPath) ? options.indexPath : resolve(root, options.indexPath);
  else {
    indexPath = join(cacheDir, 'index.db');
    const moved = migrateWorkspaceIndex(root, cacheDir);
    if (moved) options.logger.warn(moved);
  }
  const parser: ParserHost = options.workers === false
    ? createInProcessParserHost(assets)
    : createWorkerParserHost(assetRoot, options.workers);
  return createEngine(
    { root, fs: nodeFileSystem, storage: createFileIndexStorage(indexPath), logger: options.logger, clock: { now: () => Date.now() }, assets, parser,
      memory: { residentBytes: () => process.memoryUsage.rss() },
      git: createNodeGit(root), http: options.http ?? nodeHttpClient, env: { get: (name) => process.env[name] }, writer: nodeWorkspaceWriter,
      state: createStateStore(join(root, '.context-oracle')), cache: createStateStore(cacheDir), sessionLogDir: join(cacheDir, 'threads'),
      ...(options.navigation ? { navigation: options.navigation } : {}),
      ...(options.userModel ? { userModel: options.userModel } : {}) },
    options.config,
  );
}
