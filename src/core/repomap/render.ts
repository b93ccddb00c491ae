/**
 * Renders ranked map entries as text: one `path:` line per file, then each chosen definition's head indented under
 * its containers, `⋮` where definitions of the file are left out. Files appear most important first.
 */
import type { MapData, MapTag } from './types';

/** A ranked entry: a definition, or a file with nothing ranked in it (shown as its path only). */
export interface MapEntry {
  file: number;
  tag?: MapTag;
}

const MAX_LINE = 100;
export const ELISION = '⋮';

/** A definition's head on one line: the signature without its body opener, arrow bodies cut, long heads shortened. */
export function headOf(tag: MapTag, signature: string | undefined): string {
  let head = signature || tag.name;
  const arrow = head.indexOf('=>');
  if (arrow >= 0 && /^[^(]*=/.test(head)) head = head.slice(0, arrow + 2);
  head = head.replace(/\s*\{\s*$/, '').trimEnd();
  return head.length > MAX_LINE ? `${head.slice(0, MAX_LINE - 1)}…` : head;
}

export interface RenderedFile {
  file: number;
  tags: MapTag[];
}

/** Groups entries by file (first appearance order) with each file's chosen tags plus their containers. */
export function groupEntries(data: MapData, entries: MapEntry[]): RenderedFile[] {
  const order: number[] = [];
  const chosen = new Map<number, Set<number>>();
  for (const e of entries) {
    let set = chosen.get(e.file);
    if (!set) {
      chosen.set(e.file, (set = new Set()));
      order.push(e.file);
    }
    if (e.tag) {
      const fileTags = data.tags.of(e.file);
      for (let t: MapTag | undefined = e.tag; t && !set.has(t.index); t = t.parent === undefined ? undefined : fileTags[t.parent]) set.add(t.index);
    }
  }
  return order.map((file) => ({ file, tags: [...chosen.get(file)!].sort((a, b) => a - b).map((i) => data.tags.of(file)[i]!) }));
}

export function renderGroups(data: MapData, groups: RenderedFile[]): string {
  const out: string[] = [];
  for (const { file, tags } of groups) {
    const path = data.files[file]!;
    if (!tags.length) {
      out.push(path);
      continue;
    }
    out.push(`${path}:`);
    const all = data.tags.of(file);
    let prev = -1;
    let prevLine = -1;
    for (const tag of tags) {
      if (tag.line === prevLine) { // one source line can declare several names (Go `a, b int`)
        prev = tag.index;
        continue;
      }
      if (tag.index !== prev + 1) out.push(ELISION);
      out.push(`│${'  '.repeat(depthOf(all, tag))}${headOf(tag, data.details.get(tag.id)?.signature)}`);
      prev = tag.index;
      prevLine = tag.line;
    }
    if (prev !== all.length - 1) out.push(ELISION);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

function depthOf(all: MapTag[], tag: MapTag): number {
  let depth = 0;
  for (let t = tag; t.parent !== undefined; t = all[t.parent]!) depth++;
  return depth;
}
