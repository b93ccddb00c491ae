/**
 * The symbol a navigation question asks about, for `def --from-question`: stricter than a question's subject
 * (analysis.ts), which may be absent; this one always names something or fails.
 */
import { EngineError } from '../errors';
import { NOT_A_SYMBOL } from '../text/question-words';

const QUESTION_PATTERNS: RegExp[] = [
  /\bwhere\s+(?:is|are)\s+(?:the\s+)?(?:definition\s+of\s+)?[`'"]?([\p{L}_$][\w$.:#]*)[`'"]?\s+(?:defined|declared|implemented)/iu,
  /\b(?:definition|declaration)\s+of\s+[`'"]?([\p{L}_$][\w$.:#]*)/iu,
  /\b(?:find|locate|show|go\s+to)\s+(?:the\s+)?(?:definition\s+of\s+)?[`'"]?([\p{L}_$][\w$.:#]*)/iu,
  /\bwhere\s+(?:is|are)\s+[`'"]?([\p{L}_$][\w$.:#]*)/iu,
];

/**
 * The symbol a navigation question asks about ("Where is X defined?", "definition of X"). Falls back to the most
 * identifier-like word (code quotes, then mixed case, underscores or dots) when no phrasing matches.
 */
export function symbolFromQuestion(question: string): string {
  for (const re of QUESTION_PATTERNS) {
    const m = re.exec(question);
    const found = m?.[1]?.replace(/[.:#]+$/, '');
    if (found && !NOT_A_SYMBOL.has(found.toLowerCase())) return found;
  }
  const quoted = /`([^`\s]+)`/.exec(question)?.[1];
  if (quoted) return quoted.replace(/\(\)$/, '');
  const words = question.match(/[\p{L}_$][\w$.:#]*/gu) ?? [];
  const scored = words
    .map((w) => w.replace(/[.:#]+$/, ''))
    .filter((w) => w.length > 1 && !NOT_A_SYMBOL.has(w.toLowerCase()))
    .map((w) => ({ w, score: (/[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(w) ? 3 : 0) + (/[_.:#]/.test(w) ? 2 : 0) + (/[A-Z]/.test(w) ? 1 : 0) }))
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best || best.score === 0) throw new EngineError('invalid_input', `no symbol name found in "${question}"`);
  return best.w;
}
