/**
 * Markdown files of the workspace (or of the configured docs/notes folders), found by the index's own walk
 * (workspace/walk.ts: .gitignore, built-in and configured excludes) and kept split into sections between questions:
 * a file is read again only when its size or mtime changed. The walk itself is the costly part on a large workspace (every
 * directory read, every .gitignore tried: 450 ms a question on vite's 2,800 files), so its list is reused and walked
 * again in the background once it is REWALK_MS old: a markdown file added since shows up a question later.
 */
import { decodeText } from '../index/content';
import { joinPath, normaliseRelative } from '../index/paths';
import type { FileSystem } from '../ports';
import { walkTree } from '../workspace/walk';
import { vocabulary } from './lexical';
import { splitMarkdown, type MarkdownSection } from './markdown';

export interface IndexedSection extends MarkdownSection {
  vocab: Set<string>;
  /** Vocabulary of the heading trail alone (headings that name the question rank higher). */
  trailVocab: Set<string>;
}

export interface MarkdownFile {
  path: string;
  lines: string[];
  sections: IndexedSection[];
}

export interface MarkdownWalkOptions {
  folders: string[];
  exclude: string[];
  respectGitignore: boolean;
  signal?: AbortSignal;
}

/** Engine-lifetime cache of parsed markdown, keyed by path and validated by size and mtime. */
export interface MarkdownCache {
  files(root: string, fs: FileSystem, options: MarkdownWalkOptions): Promise<MarkdownFile[]>;
  /** Sections of one markdown file (a thread), cached the same way; undefined when it cannot be read. */
  file(root: string, fs: FileSystem, path: string): Promise<MarkdownFile | undefined>;
}

const MARKDOWN = /\.(md|mdx|markdown)$/i;
const MAX_FILES = 5000;
const MAX_BYTES = 1024 * 1024;
/** Age after which the walk's list is refreshed (in the background; the question at hand uses the list it has). */
export const REWALK_MS = 30_000;

interface Walk {
  paths: string[];
  at: number;
  refreshing?: Promise<void>;
}

/** `now` dates the walks (the engine's clock). */
export function createMarkdownCache(now: () => number = Date.now): MarkdownCache {
  const cache = new Map<string, { stamp: string; file: MarkdownFile }>();
  const walks = new Map<string, Walk>();

  async function paths(root: string, fs: FileSystem, options: MarkdownWalkOptions): Promise<string[]> {
    const key = JSON.stringify([root, options.folders, options.exclude, options.respectGitignore]);
    const walk = walks.get(key);
    if (!walk) {
      const found = await walkMarkdown(root, fs, options);
      // A cancelled walk is partial: not kept.
      if (!options.signal?.aborted) walks.set(key, { paths: found, at: now() });
      return found;
    }
    if (now() - walk.at >= REWALK_MS && !walk.refreshing) {
      // Not tied to this question's signal: the next question wants the list even if this one is cancelled.
      const untied = { folders: options.folders, exclude: options.exclude, respectGitignore: options.respectGitignore };
      walk.refreshing = walkMarkdown(root, fs, untied).then(
        (found) => { walks.set(key, { paths: found, at: now() }); },
        () => { walk.refreshing = undefined; },
      );
    }
    return walk.paths;
  }

  async function load(root: string, fs: FileSystem, path: string): Promise<MarkdownFile | undefined> {
    const abs = joinPath(root, path);
    const st = await fs.stat(abs).catch(() => undefined);
    if (!st?.isFile || st.size > MAX_BYTES) return undefined;
    const stamp = `${st.size}:${st.mtimeMs}`;
    const hit = cache.get(path);
    if (hit?.stamp === stamp) return hit.file;
    let text: string;
    try {
      text = decodeText(await fs.readFile(abs)).text;
    } catch {
      return undefined;
    }
    const lines = text.split(/\r?\n/);
    const sections = splitMarkdown(lines).map((s) => ({
      ...s, vocab: vocabulary(`${s.trail}\n${lines.slice(s.line - 1, s.endLine).join('\n')}`), trailVocab: vocabulary(s.trail),
    }));
    const file = { path, lines, sections };
    cache.set(path, { stamp, file });
    return file;
  }

  return {
    file: load,
    async files(root, fs, options) {
      // Checked together, not one after the other: each is a stat (and a read when it changed).
      const loaded = await Promise.all((await paths(root, fs, options)).map((p) => load(root, fs, p)));
      return loaded.filter((f): f is MarkdownFile => f !== undefined);
    },
  };
}

async function walkMarkdown(root: string, fs: FileSystem, options: MarkdownWalkOptions): Promise<string[]> {
  const found: string[] = [];
  const folders = options.folders.length ? options.folders : [''];
  for (const folder of folders) {
    const rel = normaliseRelative(folder);
    if (rel === undefined) continue; // outside the workspace: never read
    if (found.length >= MAX_FILES) break;
    await walkTree(root, fs, options, {
      wants: (name) => MARKDOWN.test(name),
      file(path) {
        if (!MARKDOWN.test(path)) return;
        found.push(path);
        return found.length < MAX_FILES;
      },
    }, { from: rel, ...(options.signal ? { signal: options.signal } : {}) });
  }
  return [...new Set(found)];
}
