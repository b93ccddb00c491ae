/**
 * An index built elsewhere (in CI, by a teammate) and opened here. What makes it portable: files are keyed by
 * workspace-relative POSIX paths, and the only absolute path, meta `root`, is informational. What makes it safe:
 * its schema, engine and grammar versions must match this engine's exactly (a mismatch is a typed error, never a
 * silently different answer), and its files' mtimes are not trusted (a copy or a checkout resets them, and a
 * coincidentally equal mtime would hide an edit): the first run here compares every file by content hash, re-indexes
 * what differs and drops what is gone.
 */
import type { ImageDraft } from '../ports';
import { EngineError } from '../errors';
import type { IndexChange } from '../store/changes';

/** Meta keys an imported index must carry with exactly this engine's values. */
export const VERSION_KEYS = ['schema_version', 'engine_version', 'grammar_hash'] as const;

/** Throws index_incompatible naming the first version that differs. */
export function checkIndexVersions(meta: Record<string, string>, expected: Record<string, string>): void {
  for (const key of VERSION_KEYS) {
    if (meta[key] === expected[key]) continue;
    throw new EngineError('index_incompatible',
      `the index was written with ${key}=${meta[key] ?? 'none'} and this engine needs ${expected[key]}: build it again with this version (\`context-oracle index --full\`)`,
      { key, found: meta[key] ?? null, expected: expected[key] ?? null });
  }
}

/** True when the index was last brought up to date under another root than `root` (copied or imported). */
export function isForeign(meta: Record<string, string>, root: string): boolean {
  return meta.root !== undefined && meta.root !== root;
}

/**
 * The writes that adopt a foreign index under `root`: every stored mtime forgotten (-1 never equals a real one, so
 * the next run hashes each file) and the root recorded, with where it came from.
 */
export function adoptionChanges(meta: Record<string, string>, root: string): IndexChange[] {
  return [
    { op: 'sql', sql: 'UPDATE files SET mtime = -1', params: [] },
    { op: 'meta', values: { root, built_under: meta.built_under ?? meta.root ?? '' } },
  ];
}

/** An image written into memory (for export): grows as pages are written. */
export function bufferDraft(): ImageDraft & { bytes(): Uint8Array } {
  let buf = new Uint8Array(1 << 20);
  let size = 0;
  return {
    get size() { return size; },
    write(bytes, position) {
      const end = position + bytes.length;
      if (end > buf.length) {
        const next = new Uint8Array(Math.max(end, buf.length * 2));
        next.set(buf.subarray(0, size));
        buf = next;
      }
      buf.set(bytes, position);
      size = Math.max(size, end);
    },
    read(into, position) {
      const part = buf.subarray(position, Math.min(size, position + into.length));
      into.set(part);
      return part.length;
    },
    async commit() {},
    close() {},
    bytes: () => buf.slice(0, size),
  };
}
