/** Markdown split at ATX headings (`#` … `######`, outside fenced code) into sections with 1-based line ranges. */
import { markdownHeadings } from '../text/markdown-headings';

export interface MarkdownSection {
  /** Heading text, or the file's first line for text before any heading. */
  heading: string;
  /** Headings above this one and this one, joined with ' › '. */
  trail: string;
  level: number;
  /** 1-based: the heading line (or 1) to the line before the next heading of any level. */
  line: number;
  endLine: number;
}

export function splitMarkdown(lines: string[]): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const stack: { level: number; text: string }[] = [];
  const headings = new Map(markdownHeadings(lines).map((h) => [h.index, h]));
  let open: MarkdownSection | undefined;
  const close = (end: number): void => {
    if (open && end >= open.line) {
      open.endLine = end;
      // Sections with no words under their heading add nothing but a title; keep them only when they are all there is.
      if (lines.slice(open.line - 1, end).some((l) => /[A-Za-z0-9]/.test(l))) sections.push(open);
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const h = headings.get(i);
    if (!h) {
      if (!open) open = { heading: text.trim().slice(0, 80) || '(top)', trail: '', level: 0, line: i + 1, endLine: i + 1 };
      continue;
    }
    close(i);
    while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push({ level: h.level, text: h.text });
    open = { heading: h.text, trail: stack.map((s) => s.text).join(' › '), level: h.level, line: i + 1, endLine: i + 1 };
  }
  close(lines.length);
  return sections;
}
