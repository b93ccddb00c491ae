/**
 * Documentation read on demand from the workspace and kept parsed per file, keyed by mtime and size, so a
 * document is split again only after it changes. Docs never live in the index: editing a doc needs no reindex.
 */
import { contentHash } from '../index/content';
import type { FileStat, FileSystem } from '../ports';
import { absolute, listMarkdown, statRel, stampOf } from '../graph/workspace-files';
import type { WalkRules } from '../workspace/walk';
import { chunkMarkdown, type DocChunk } from './markdown';

export interface ParsedDoc {
  path: string;
  /** `path:mtime:size`; `path:-` when the file is missing. */
  stamp: string;
  exists: boolean;
  /** sha1 of the bytes (the hash the index keeps for code), '' when missing. */
  hash: string;
  chunks: DocChunk[];
}

const MAX_DOC_BYTES = 2 * 1024 * 1024;

/** What a request sees of the docs: expand, stamp and get, each file stat'ed at most once per request. */
export interface DocView {
  expand(entries: readonly string[]): Promise<string[]>;
  stamp(path: string): Promise<string>;
  get(path: string): Promise<ParsedDoc>;
}

export class DocStore {
  private readonly docs = new Map<string, ParsedDoc>();

  constructor(private readonly fs: FileSystem, private readonly root: string, private readonly walkRules: WalkRules) {}

  /**
   * A view for one request. Stats are memoised for its lifetime only: a bundle touches each doc several times
   * (chunks, sync, cache stamp) and every async stat costs a thread-pool round trip.
   */
  session(): DocView {
    const stats = new Map<string, Promise<FileStat | undefined>>();
    const stat = (rel: string) => {
      let p = stats.get(rel);
      if (!p) stats.set(rel, (p = statRel(this.fs, this.root, rel)));
      return p;
    };
    const expanded = new Map<string, Promise<string[]>>();
    return {
      expand: async (entries) => {
        const out: string[] = [];
        for (const entry of entries) {
          const st = await stat(entry);
          if (st?.isDirectory) {
            let list = expanded.get(entry);
            if (!list) expanded.set(entry, (list = listMarkdown(this.fs, this.root, this.walkRules, entry, 500)));
            out.push(...(await list));
          } else out.push(entry);
        }
        return [...new Set(out)];
      },
      stamp: async (path) => stampOf(path, await stat(path)),
      get: async (path) => this.parse(path, await stat(path)),
    };
  }

  private async parse(path: string, stat: FileStat | undefined): Promise<ParsedDoc> {
    const stamp = stampOf(path, stat);
    const cached = this.docs.get(path);
    if (cached && cached.stamp === stamp) return cached;
    let doc: ParsedDoc = { path, stamp, exists: false, hash: '', chunks: [] };
    if (stat?.isFile && stat.size <= MAX_DOC_BYTES) {
      const bytes = await this.fs.readFile(absolute(this.root, path)).catch(() => undefined);
      if (bytes) {
        const text = new TextDecoder('utf-8').decode(bytes);
        doc = { path, stamp, exists: true, hash: contentHash(bytes), chunks: chunkMarkdown(path, text) };
      }
    }
    this.docs.set(path, doc);
    return doc;
  }
}
