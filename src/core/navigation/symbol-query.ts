/** What the user typed as SYMBOL: a plain name, `Container.name`, `pkg.module.name`, `crate::mod::Name`, `Class#method`. */
import { EngineError } from '../errors';

export interface SymbolQuery {
  raw: string;
  /** The last segment: the name every candidate must have. */
  name: string;
  /** Leading segments, outermost first: containers and/or module path parts. */
  qualifiers: string[];
}

// `Class#method` separates with '#', but `#name` alone is a JavaScript private name.
const SEPARATORS = /::|->|[./\\]|(?<=[\p{L}\p{N}_$])#/u;
const IDENT = /^#?[\p{L}_$][\p{L}\p{N}_$]*[!?]?$/u;

export function parseSymbolQuery(raw: string): SymbolQuery {
  const text = raw.trim().replace(/\(\)$/, '');
  if (!text) throw new EngineError('required', 'a symbol name is required');
  const parts = text.split(SEPARATORS).map((p) => p.trim()).filter((p) => p.length > 0);
  const name = parts.pop();
  if (!name || !IDENT.test(name)) {
    throw new EngineError('invalid_input', `"${raw}" is not a symbol name (expected e.g. listen, Server.listen or auth.service.login)`);
  }
  return { raw: text, name, qualifiers: parts };
}

const QUESTION_PATTERNS: RegExp[] = [
  /\bwhere\s+(?:is|are)\s+(?:the\s+)?(?:definition\s+of\s+)?[`'"]?([\p{L}_$][\w$.:#]*)[`'"]?\s+(?:defined|declared|implemented)/iu,
  /\b(?:definition|declaration)\s+of\s+[`'"]?([\p{L}_$][\w$.:#]*)/iu,
  /\b(?:find|locate|show|go\s+to)\s+(?:the\s+)?(?:definition\s+of\s+)?[`'"]?([\p{L}_$][\w$.:#]*)/iu,
  /\bwhere\s+(?:is|are)\s+[`'"]?([\p{L}_$][\w$.:#]*)/iu,
];
const WORDS = new Set(['the', 'a', 'an', 'it', 'this', 'that', 'they', 'function', 'class', 'type', 'method', 'interface', 'struct', 'trait', 'enum', 'symbol', 'constant', 'variable']);

/**
 * The symbol a navigation question asks about ("Where is X defined?", "definition of X"). Falls back to the most
 * identifier-like word (code quotes, then mixed case, underscores or dots) when no phrasing matches.
 */
export function symbolFromQuestion(question: string): string {
  for (const re of QUESTION_PATTERNS) {
    const m = re.exec(question);
    const found = m?.[1]?.replace(/[.:#]+$/, '');
    if (found && !WORDS.has(found.toLowerCase())) return found;
  }
  const quoted = /`([^`\s]+)`/.exec(question)?.[1];
  if (quoted) return quoted.replace(/\(\)$/, '');
  const words = question.match(/[\p{L}_$][\w$.:#]*/gu) ?? [];
  const scored = words
    .map((w) => w.replace(/[.:#]+$/, ''))
    .filter((w) => w.length > 1 && !WORDS.has(w.toLowerCase()))
    .map((w) => ({ w, score: (/[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(w) ? 3 : 0) + (/[_.:#]/.test(w) ? 2 : 0) + (/[A-Z]/.test(w) ? 1 : 0) }))
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best || best.score === 0) throw new EngineError('invalid_input', `no symbol name found in "${question}"`);
  return best.w;
}
