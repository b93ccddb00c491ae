/**
 * Parsed graph files kept across processes in `graph-cache.json` of the cache folder (the `cache` StateStore), keyed by `path:mtime:size`.
 * The `yaml` package's document parser (needed for line positions) takes ~150 µs per node, so a 2,000-node graph
 * costs ~0.3 s to parse; every CLI call would pay that without this cache. A changed file is parsed again; a
 * missing or unreadable cache file just means parsing.
 */
import type { StateStore } from '../ports';
import type { ParsedYamlFile } from './yaml-file';

export const GRAPH_CACHE_FILE = 'graph-cache.json';
const FORMAT = 1;

interface Stored {
  format: number;
  files: Record<string, { stamp: string; parsed: ParsedYamlFile }>;
}

export class ParseCache {
  private stored?: Stored;
  private dirty = false;

  constructor(private readonly store: StateStore | undefined) {}

  private async load(): Promise<Stored> {
    if (this.stored) return this.stored;
    let stored: Stored = { format: FORMAT, files: {} };
    try {
      const text = await this.store?.read(GRAPH_CACHE_FILE);
      const parsed = text ? (JSON.parse(text) as Stored) : undefined;
      if (parsed?.format === FORMAT && parsed.files && typeof parsed.files === 'object') stored = parsed;
    } catch {
      // Unreadable cache: start empty.
    }
    this.stored = stored;
    return stored;
  }

  async get(file: string, stamp: string): Promise<ParsedYamlFile | undefined> {
    const hit = (await this.load()).files[file];
    return hit?.stamp === stamp ? hit.parsed : undefined;
  }

  async set(file: string, stamp: string, parsed: ParsedYamlFile): Promise<void> {
    (await this.load()).files[file] = { stamp, parsed };
    this.dirty = true;
  }

  /** Writes the cache when something changed, dropping files that are gone. Failing to write is not an error. */
  async flush(keep: readonly string[]): Promise<void> {
    if (!this.stored || !this.store) return;
    for (const f of Object.keys(this.stored.files)) if (!keep.includes(f)) { delete this.stored.files[f]; this.dirty = true; }
    if (!this.dirty) return;
    this.dirty = false;
    await this.store.write(GRAPH_CACHE_FILE, JSON.stringify(this.stored)).catch(() => undefined);
  }
}
