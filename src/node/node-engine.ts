/** Composition for Node hosts (CLI, MCP server, language server): real ports around createEngine. */
import { isAbsolute, join, resolve } from 'node:path';
import { createEngine, type Engine } from '../core/engine';
import type { EngineConfig } from '../core/config';
import type { Logger, NavigationProvider, ParserHost, UserModelSource } from '../core/ports';
import { createInProcessParserHost } from '../core/parse/in-process-parser-host';
import { createNodeAssetLocator } from './assets';
import { nodeFileSystem } from './file-system';
import { createFileIndexStorage } from './index-storage';
import { createWorkerParserHost } from './worker-parser-host';
import { createNodeGit } from './git';
import { nodeHttpClient } from './http';
import { nodeWorkspaceWriter } from './workspace-writer';
import { createStateStore } from './state-store';

export interface NodeEngineOptions {
  root: string;
  /** Index file; default <root>/.context-oracle/index.db. */
  indexPath?: string;
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
}

export function defaultIndexPath(root: string): string {
  return join(root, '.context-oracle', 'index.db');
}

export function createNodeEngine(options: NodeEngineOptions): Engine {
  const root = resolve(options.root);
  const assetRoot = options.assetRoot ?? __dirname;
  const assets = createNodeAssetLocator(assetRoot);
  const indexPath = options.indexPath ? (isAbsolute(options.indexPath) ? options.indexPath : resolve(root, options.indexPath)) : defaultIndexPath(root);
  const parser: ParserHost = options.workers === false
    ? createInProcessParserHost(assets)
    : createWorkerParserHost(assetRoot, options.workers);
  return createEngine(
    { root, fs: nodeFileSystem, storage: createFileIndexStorage(indexPath), logger: options.logger, clock: { now: () => Date.now() }, assets, parser,
      git: createNodeGit(root), http: nodeHttpClient, env: { get: (name) => process.env[name] }, writer: nodeWorkspaceWriter,
      state: createStateStore(join(root, '.context-oracle')), ...(options.navigation ? { navigation: options.navigation } : {}),
      ...(options.userModel ? { userModel: options.userModel } : {}) },
    options.config,
  );
}
