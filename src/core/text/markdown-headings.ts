/**
 * Where a Markdown file's ATX headings are: the one reading of headings and fenced code behind both section
 * splitters (the oracle's docs sections, `oracle/markdown.ts`, and the bundle's doc chunks, `docs/markdown.ts`).
 * A fence closes only on the character that opened it, at least as long and with nothing after it, so a ``` fence
 * that shows a ~~~ line (or the other way round) does not end early and turn code comments into headings.
 */

export interface MarkdownHeading {
  /** 0-based index of the heading's line. */
  index: number;
  level: number;
  /** Heading text without the #s, the closing #s and surrounding spaces. */
  text: string;
}

// Fences nested in list items are indented, so any indentation opens one; a heading takes at most three spaces.
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Headings of level 1 to `maxLevel` outside fenced code, in order. */
export function markdownHeadings(lines: readonly string[], maxLevel = 6): MarkdownHeading[] {
  const out: MarkdownHeading[] = [];
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const f = FENCE.exec(line);
    if (fence) {
      // A closing fence: the opening character, at least as many, nothing but spaces after.
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && !f[2]!.trim()) fence = undefined;
      continue;
    }
    // A backtick fence's info string cannot hold a backtick (CommonMark): "```js```" is inline code, not a fence.
    if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
      fence = f[1]!;
      continue;
    }
    const h = HEADING.exec(line);
    if (h && h[1]!.length <= maxLevel) out.push({ index, level: h[1]!.length, text: h[2]!.trim() });
  }
  return out;
}
