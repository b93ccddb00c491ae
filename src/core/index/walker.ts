/**
 * The index's view of the workspace walk (workspace/walk.ts: .gitignore root and nested, built-in and configured
 * excludes, symlinks kept inside the root): a known language and the size cap. Every file not handed to the parser
 * is counted with its reason.
 */
import type { Ignore } from 'ignore';
import type { EngineConfig } from '../config';
import { languageForPath } from '../parse/languages';
import type { FileStat, FileSystem, Logger } from '../ports';
import { excludeMatcher, isBuiltinExclude, loadIgnoreLayer } from '../workspace/ignore-chain';
import { walkTree } from '../workspace/walk';
import { joinPath, isInside } from './paths';

export type SkipReason =
  | 'gitignored' | 'excluded' | 'unsupported' | 'too_large' | 'binary' | 'unreadable' | 'outside_workspace'
  | 'symlink_loop' | 'parse_failed' | 'grammar_unavailable' | 'vanished' | 'minified';

export interface Candidate {
  path: string;
  abs: string;
  language: string;
  size: number;
  mtimeMs: number;
}

export interface WalkResult {
  files: Candidate[];
  skipCounts: Partial<Record<SkipReason, number>>;
  /** Notable skips with the path (not the huge gitignored/unsupported lists). */
  skipped: { path: string; reason: SkipReason; detail?: string }[];
}

export async function walkWorkspace(root: string, fs: FileSystem, config: EngineConfig, logger: Logger, signal?: AbortSignal): Promise<WalkResult> {
  const result: WalkResult = { files: [], skipCounts: {}, skipped: [] };
  const count = (reason: SkipReason, path?: string, detail?: string): void => {
    result.skipCounts[reason] = (result.skipCounts[reason] ?? 0) + 1;
    if (path && reason !== 'gitignored' && reason !== 'unsupported' && reason !== 'excluded') result.skipped.push({ path, reason, ...(detail ? { detail } : {}) });
  };
  await walkTree(root, fs, config, {
    wants: (name) => languageForPath(name) !== undefined,
    skip: count,
    async file(rel, abs, stat) {
      const language = languageForPath(rel);
      if (!language) { count('unsupported'); return; }
      let st: FileStat;
      try {
        st = await stat();
      } catch (error) {
        count('vanished', rel, error instanceof Error ? error.message : String(error));
        return;
      }
      if (st.size > config.maxFileBytes) { count('too_large', rel, `${st.size} bytes`); return; }
      result.files.push({ path: rel, abs, language: language.id, size: st.size, mtimeMs: st.mtimeMs });
    },
  }, signal ? { signal } : {});
  logger.debug(`walk: ${result.files.length} candidate files, skips ${JSON.stringify(result.skipCounts)}`);
  return result;
}

/**
 * The targeted form of the walk, for queued changes: decides for each given path whether it is still an indexable
 * file (same rules as the walk: .gitignore chain, excludes, size cap, symlinks inside the root) or must leave the
 * index (`gone`: deleted, now ignored, or no longer a file; whatever the index holds under a gone path leaves with
 * it, so a deleted or moved-away folder takes its files along). A path that is a folder now (moved or copied in) is
 * listed in `folders`: only a walk finds what it holds.
 */
export async function classifyPaths(
  root: string, fs: FileSystem, config: EngineConfig, paths: readonly string[],
): Promise<WalkResult & { gone: string[]; folders: string[] }> {
  const result: WalkResult & { gone: string[]; folders: string[] } = { files: [], skipCounts: {}, skipped: [], gone: [], folders: [] };
  const count = (reason: SkipReason): void => { result.skipCounts[reason] = (result.skipCounts[reason] ?? 0) + 1; };
  const excluded = excludeMatcher(config);
  const rootReal = await fs.realPath(root);
  const layerCache = new Map<string, Ignore | null>();
  async function layerFor(dirRel: string): Promise<Ignore | null> {
    if (!layerCache.has(dirRel)) layerCache.set(dirRel, (await loadIgnoreLayer(fs, config, dirRel ? joinPath(root, dirRel) : root, dirRel))?.matcher ?? null);
    return layerCache.get(dirRel)!;
  }
  for (const path of new Set(paths)) {
    const parts = path.split('/');
    if (parts.some((p) => p === '..' || p === '') || parts.slice(0, -1).some(isBuiltinExclude)) {
      result.gone.push(path);
      continue;
    }
    let ignored = false;
    for (let depth = 0; depth < parts.length && !ignored; depth++) {
      const dirRel = parts.slice(0, depth).join('/');
      const matcher = await layerFor(dirRel);
      const sub = parts.slice(depth).join('/');
      if (matcher?.ignores(sub)) ignored = true;
      // A directory on the way being ignored hides everything below it.
      for (let k = depth + 1; k < parts.length && !ignored; k++) if (matcher?.ignores(`${parts.slice(depth, k).join('/')}/`)) ignored = true;
    }
    if (ignored) { count('gitignored'); result.gone.push(path); continue; }
    if (excluded(path, false)) { count('excluded'); result.gone.push(path); continue; }
    const abs = joinPath(root, path);
    if ((await fs.stat(abs).catch(() => undefined))?.isDirectory) { result.folders.push(path); continue; }
    const language = languageForPath(path);
    if (!language) { count('unsupported'); result.gone.push(path); continue; }
    const real = await fs.realPath(abs).catch(() => undefined);
    const st = real ? await fs.stat(real).catch(() => undefined) : undefined;
    if (!real || !st || !st.isFile) { result.gone.push(path); continue; }
    if (!isInside(rootReal, real)) { count('outside_workspace'); result.gone.push(path); continue; }
    if (st.size > config.maxFileBytes) { count('too_large'); result.skipped.push({ path, reason: 'too_large', detail: `${st.size} bytes` }); result.gone.push(path); continue; }
    result.files.push({ path, abs, language: language.id, size: st.size, mtimeMs: st.mtimeMs });
  }
  return result;
}
