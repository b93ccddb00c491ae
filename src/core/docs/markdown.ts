/**
 * Markdown → chunks split at headings (levels 1–3, never inside fenced code), each classified spec, invariants,
 * constraints, api, tests or other. A sub-heading that says nothing itself inherits its parent's class, so
 * "### Cache" under "## Specification" is spec. Long sections are split again at paragraph breaks.
 */
import { markdownHeadings } from '../text/markdown-headings';

export const SECTIONS = ['spec', 'invariants', 'constraints', 'api', 'tests', 'other'] as const;
export type Section = (typeof SECTIONS)[number];

/** Bundle order: spec first, other last. */
export const SECTION_PRIORITY: Readonly<Record<Section, number>> = { spec: 1, invariants: 2, constraints: 3, api: 4, tests: 5, other: 6 };

export interface DocChunk {
  doc_path: string;
  section: Section;
  heading: string;
  content: string;
  /** 1-based line of the heading (or of the first line for the text before any heading). */
  line: number;
  /** Position of the chunk within its document. */
  index: number;
}

export const MAX_CHUNK_CHARS = 2000;

// Checked in order; the first match wins. "constraint" is its own class here (beadloom folds it into invariants).
const RULES: Array<[RegExp, Section]> = [
  [/\bspec(ification)?s?\b|\brequirements?\b|business.?rules|\bpurpose\b/i, 'spec'],
  [/\binvariants?\b|\bguarantees?\b/i, 'invariants'],
  [/\bconstraints?\b|\blimits?\b|\blimitations?\b|\brestrictions?\b/i, 'constraints'],
  [/\bapis?\b|\bendpoints?\b|\broutes?\b|\bcli\b|\binterfaces?\b|\bcommands?\b/i, 'api'],
  [/\btests?\b|\btesting\b/i, 'tests'],
];

export function classifyHeading(heading: string): Section {
  for (const [re, section] of RULES) if (re.test(heading)) return section;
  return 'other';
}

interface Section0 {
  heading: string;
  level: number;
  line: number;
  body: string[];
}

export function chunkMarkdown(docPath: string, text: string): DocChunk[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const sections: Section0[] = [{ heading: '', level: 0, line: 1, body: [] }];
  const headings = new Map(markdownHeadings(lines, 3).map((h) => [h.index, h]));
  for (let i = 0; i < lines.length; i++) {
    const h = headings.get(i);
    if (h) sections.push({ heading: h.text, level: h.level, line: i + 1, body: [] });
    else sections[sections.length - 1]!.body.push(lines[i]!);
  }
  const chunks: DocChunk[] = [];
  const parents: Array<{ level: number; section: Section }> = [];
  for (const s of sections) {
    while (parents.length && parents[parents.length - 1]!.level >= s.level) parents.pop();
    let section = classifyHeading(s.heading);
    if (section === 'other' && parents.length) section = parents[parents.length - 1]!.section;
    if (s.level > 0) parents.push({ level: s.level, section });
    const body = s.body.join('\n').trim();
    // A title with nothing under it (the usual `# Name` line) makes no chunk of its own.
    if (!body) continue;
    for (const part of splitLong(body)) {
      chunks.push({ doc_path: docPath, section, heading: s.heading, content: part, line: s.line, index: chunks.length });
    }
  }
  return chunks;
}

function splitLong(body: string): string[] {
  if (body.length <= MAX_CHUNK_CHARS) return [body];
  const out: string[] = [];
  let current = '';
  for (const para of body.split(/\n{2,}/)) {
    if (current && current.length + para.length + 2 > MAX_CHUNK_CHARS) {
      out.push(current);
      current = '';
    }
    // A single paragraph over the limit (a huge table or code block) is cut at line breaks, then hard.
    let rest = para;
    while (rest.length > MAX_CHUNK_CHARS) {
      const cut = rest.lastIndexOf('\n', MAX_CHUNK_CHARS);
      const at = cut > MAX_CHUNK_CHARS / 2 ? cut : MAX_CHUNK_CHARS;
      if (current) { out.push(current); current = ''; }
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    current = current ? `${current}\n\n${rest}` : rest;
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}
