/**
 * Entity extraction: the pieces of a question that look like code names. Patterns follow MU's extractor (quoted,
 * CamelCase, snake_case, CONSTANTS, dotted qualified names, paths) plus plain words, which only count when they
 * turn out to be the name of something in the index (resolved in symbol-match.ts).
 */
import { CODE_WORDS } from '../text/question-words';
import { isStopword } from '../text/stopwords';

export type EntityKind = 'quoted' | 'path' | 'qualified' | 'camel' | 'snake' | 'constant' | 'word';

export interface ExtractedEntity {
  /** The text as the question wrote it (without quotes). */
  text: string;
  kind: EntityKind;
  /** 0..1: how surely the text names code. */
  confidence: number;
  /** The X of "where is X defined?": looked up harder (declaration lines the parser did not record). */
  subject?: boolean;
}

const WORD_CONFIDENCE = 0.25;

interface Pattern {
  kind: EntityKind | 'pascal';
  re: RegExp;
  confidence: number;
}

// Order matters only for ties: the first pattern to claim a text with the highest confidence keeps its kind.
const PATTERNS: Pattern[] = [
  { kind: 'path', re: /(?:^|[\s(`'"])((?:[\w.-]+\/)+[\w.-]+|[\w-]+\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|swift|c|cc|cpp|h|hpp|m|mm|rb|php|cs))(?=$|[\s),`'":;])/g, confidence: 0.95 },
  { kind: 'qualified', re: /\b([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)+)/g, confidence: 0.85 },
  { kind: 'camel', re: /\b([a-z_$][a-z0-9_$]*[A-Z][\w$]*)/g, confidence: 0.9 },
  { kind: 'camel', re: /\b([A-Z][a-z0-9]+[A-Z][\w$]*)/g, confidence: 0.9 },
  { kind: 'camel', re: /\b([A-Z]{2,}[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*)\b/g, confidence: 0.85 },
  { kind: 'constant', re: /\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g, confidence: 0.8 },
  { kind: 'snake', re: /\b(_*[a-z][a-z0-9]*(?:_[a-z0-9]+)+_*)\b/g, confidence: 0.7 },
  { kind: 'pascal', re: /\b([A-Z][a-z]{3,}[a-z0-9]*)\b/g, confidence: 0.6 },
  { kind: 'word', re: /\b([A-Za-z][a-z0-9]{2,}|[A-Z]{3,})\b/g, confidence: WORD_CONFIDENCE },
];

const QUOTED = /`([^`\n]{1,120})`|"([^"\n]{1,120})"|'([^'\s][^'\n]{0,118})'/g;
/** Dotted words that are prose, not code (e.g., i.e., vs. …) or version numbers. */
const PROSE_DOTTED = /^(?:e\.g|i\.e|etc|vs|[0-9.]+)$/i;

/** Code-looking names in `question`, most confident first, deduplicated by text. */
export function extractEntities(question: string): ExtractedEntity[] {
  const found = new Map<string, ExtractedEntity>();
  const add = (text: string, kind: EntityKind, confidence: number): void => {
    const cleaned = text.replace(/\(\s*\)$/, '').replace(/^[.:#]+|[.:#]+$/g, '');
    if (cleaned.length < 2 || PROSE_DOTTED.test(cleaned)) return;
    if (kind === 'word' && (isStopword(cleaned.toLowerCase()) || CODE_WORDS.has(cleaned.toLowerCase()))) return;
    const prior = found.get(cleaned);
    if (!prior || prior.confidence < confidence) found.set(cleaned, { text: cleaned, kind, confidence });
  };
  for (const m of question.matchAll(QUOTED)) {
    const inner = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    // A quoted identifier is the strongest hint there is; a quoted sentence is not a name.
    if (/^[\w$.:#/-]+(?:\(\s*\))?$/.test(inner)) add(inner, 'quoted', 1.0);
  }
  for (const p of PATTERNS) {
    for (const m of question.matchAll(p.re)) {
      // A capitalised word opening a sentence or a bullet is prose ("Add", "Remove"), not a type name.
      if (p.kind === 'pascal' && /(^|[.!?:;\n]|^\s*[-*])\s*$/.test(question.slice(0, m.index))) add(m[1]!, 'word', WORD_CONFIDENCE);
      else add(m[1]!, p.kind === 'pascal' ? 'camel' : p.kind, p.confidence);
    }
  }
  // "Where is X defined?" names its subject outright, whatever X looks like.
  const subject = locateSubject(question);
  if (subject) {
    add(subject, found.get(subject)?.kind ?? 'quoted', 0.95);
    const e = found.get(subject.replace(/\(\s*\)$/, ''));
    if (e) e.subject = true;
  }
  return [...found.values()].sort((a, b) => b.confidence - a.confidence || a.text.localeCompare(b.text));
}

/** The X of "where is X (defined|declared|…)" / "definition of X", when the question has that shape. */
export function locateSubject(question: string): string | undefined {
  const m = /\bwhere\s+(?:is|are)\s+(?:the\s+)?(?:(?:function|method|class|type|struct|trait|interface|enum|constant|macro)\s+)?[`'"]?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)[`'"]?(?:\(\))?\s+(?:defined|declared|implemented|located)\b/i.exec(question)
    ?? /\b(?:definition|declaration)\s+of\s+[`'"]?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)/i.exec(question);
  return m?.[1];
}

/**
 * True when the question is about tests themselves, so test files are not ranked down. Only the first line counts:
 * details such as "and add tests" say what else was done, not what the question is about.
 */
export function mentionsTests(question: string): boolean {
  const head = question.trim().split('\n')[0]!;
  return /\b(tests?|testing|specs?|unit[- ]?tests?|test[- ]?cases?|fixtures?)\b/i.test(head);
}
