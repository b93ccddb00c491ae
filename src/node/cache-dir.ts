/**
 * Where a workspace's caches live: the index, parse and embedding caches, conversation memory and (by default) the
 * oracle's session logs, all outside the workspace in the user's cache folder (XDG_CACHE_HOME or ~/.cache on Linux,
 * ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows):
 *   <cache>/context-oracle/<workspace name>-<12 hex of sha256(real path)>/
 *     index.db (+ .journal, .lock)   graph-cache.json, embeddings-*.json   conversation-*.json   threads/
 * Keyed by the workspace's real path, so the language server, the CLI and the MCP server of one workspace share it.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export interface PlatformInfo {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** The platform's folder for user caches. */
export function userCacheDir({ platform = process.platform, env = process.env, home = homedir() }: PlatformInfo = {}): string {
  if (platform === 'win32') return env.LOCALAPPDATA || join(home, 'AppData', 'Local');
  if (platform === 'darwin') return join(home, 'Library', 'Caches');
  return env.XDG_CACHE_HOME || join(home, '.cache');
}

/** The workspace's own cache folder (not created here). */
export function workspaceCacheDir(root: string, info: PlatformInfo = {}): string {
  let real = resolve(root);
  try {
    real = realpathSync.native(real);
  } catch {
    // A root that does not exist yet keys by its resolved path.
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
  const name = (basename(real) || 'root').replace(/[^\w.-]/g, '_');
  return join(userCacheDir(info), 'context-oracle', `${name}-${hash}`);
}

/** What the workspace's `.context-oracle/` used to hold that is a cache (the index files and its parse caches). */
const LEGACY_CACHE = /^(?:index\.db(?:\.journal)?|graph-cache\.json|embeddings-[0-9a-f]+\.json)$/;
const LEGACY_LITTER = /^index\.db\..*(?:\.tmp|\.lock)$|^index\.db\.lock$/;

function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    // The cache folder is on another file system.
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/**
 * Moves an index left in `<root>/.context-oracle/` by older versions (index.db, its journal, the parse caches) to
 * `cacheDir`, once: only when the cache folder has no index yet. Returns the line to tell the user, or undefined.
 * Nothing is moved while another process holds the old index's lock.
 */
export function migrateWorkspaceIndex(root: string, cacheDir: string): string | undefined {
  const old = join(resolve(root), '.context-oracle');
  if (!existsSync(join(old, 'index.db')) || existsSync(join(cacheDir, 'index.db'))) return undefined;
  if (existsSync(join(old, 'index.db.lock'))) return undefined;
  try {
    mkdirSync(cacheDir, { recursive: true });
    const names = readdirSync(old);
    // The journal before the image: a reader that sees the image at the new place must see its journal too.
    for (const name of names.filter((n) => LEGACY_CACHE.test(n)).sort((a, b) => Number(a === 'index.db') - Number(b === 'index.db'))) {
      move(join(old, name), join(cacheDir, name));
    }
    for (const name of names.filter((n) => LEGACY_LITTER.test(n))) rmSync(join(old, name), { force: true });
    return `moved the index from ${old} to ${cacheDir} (caches live outside the workspace now)`;
  } catch (e) {
    return `could not move the index from ${old} to ${cacheDir} (it will be rebuilt there): ${(e as Error).message}`;
  }
}
