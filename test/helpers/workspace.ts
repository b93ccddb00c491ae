/** Test helpers: temporary workspaces on disk and engines over them with the real ports (sql.js, tree-sitter). */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Engine } from '../../src/core/engine';
import type { EngineConfig } from '../../src/core/config';
import type { Logger } from '../../src/core/ports';
import { createNodeEngine, type NodeEngineOptions } from '../../src/node/node-engine';
import { workspaceCacheDir } from '../../src/node/cache-dir';

/** dist/ holds the grammars, queries and WASM runtimes; tests run from the repository root after a build. */
export const ASSET_ROOT = resolve('dist');
export const REPO_ROOT = resolve('.');

/** The workspace's cache folder as every host finds it (the test's temporary XDG_CACHE_HOME, see esbuild.mjs). */
export function cacheDirOf(root: string): string {
  return workspaceCacheDir(root);
}

/** Where the index of a workspace lives by default. */
export function indexPathOf(root: string): string {
  return join(workspaceCacheDir(root), 'index.db');
}

export function makeWorkspace(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'co-ws-'));
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export function removeWorkspace(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

export interface CapturedLogger extends Logger {
  lines: string[];
}

export function captureLogger(): CapturedLogger {
  const lines: string[] = [];
  const at = (level: string) => (m: string) => { lines.push(`${level}: ${m}`); };
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export function testEngine(root: string, config: Partial<EngineConfig> = {}, logger: Logger = captureLogger(), extra: Partial<NodeEngineOptions> = {}): Engine {
  return createNodeEngine({ root, logger, config, assetRoot: ASSET_ROOT, workers: false, ...extra });
}

/**
 * Opens engines on `root` one after another, as successive hosts would, each with a log of its own (`said` asks it);
 * each is added to `engines` for the caller to dispose.
 */
export function hostOpener(root: string, engines: Engine[]): () => { e: Engine; logger: CapturedLogger; said: (re: RegExp) => boolean } {
  return () => {
    const logger = captureLogger();
    const e = testEngine(root, {}, logger);
    engines.push(e);
    return { e, logger, said: (re) => logger.lines.some((l) => re.test(l)) };
  };
}
