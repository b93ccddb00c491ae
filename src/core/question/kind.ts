/**
 * What kind of question this is (definition, references, expected behaviour, recent change or conceptual) and the
 * code name its phrasing names ("where is X used", "definition of X").
 */
import { NOT_A_SUBJECT } from '../text/question-words';

export type QuestionKind = 'definition' | 'references' | 'behaviour' | 'change' | 'conceptual';

const REFERENCES = [
  /\bwhere\s+(?:is|are)\s+.+?\s+(?:used|called|referenced|invoked|imported|instantiated)\b/i,
  /\b(?:who|what|which\s+\w+)\s+(?:calls?|uses?|imports?|invokes?|references?)\b/i,
  /\b(?:callers?|usages?|uses|references|call\s+sites?)\s+(?:of|to|for)\b/i,
  /\bfind\s+(?:all\s+)?(?:references|usages|callers)\b/i,
];
const DEFINITION = [
  /\bwhere\s+(?:is|are)\s+.+?\s+(?:defined|declared|implemented|located)\b/i,
  /\b(?:definition|declaration)\s+of\b/i,
  /\bwhere\s+(?:is|are|does)\s+[`'"]?[\w$.:#]+[`'"]?\s*(?:live|come\s+from)?\s*\??\s*$/i,
  /\b[Ww]hat\s+(?:is|are)\s+[`'"]?[\w$.:#]*(?:[a-z][A-Z_.:#]|[A-Z][a-z]+[A-Z])[\w$.:#]*[`'"]?\s*\??\s*$/,
];
const CHANGE = [
  /\b(?:recent(?:ly)?|lately|regressions?|history|commits?|committed|blame|changelog)\b/i,
  /\b(?:when|who|how)\s+(?:was|were|did|has|have)\b.*\b(?:chang|add|remov|introduc|modif|renam|writ|wrote|fix|break|broke)\w*/i,
  // "Why was X capped?", "why did we drop Y?": the reason for a past decision lives in history and threads.
  /\bwhy\s+(?:was|were|did|has|have|had)\b/i,
  /\bwho\s+(?:wrote|added|changed|introduced|removed|broke)\b/i,
  /\b(?:what|which)\s+(?:\w+\s+)?(?:changed|broke)\b/i,
  /\blast\s+(?:change|commit|edit|modification)\b/i,
];
const BEHAVIOUR = [
  /\b(?:should|expected|expect|expects|behaviou?rs?|supposed\s+to|edge\s+cases?|what\s+happens|happens?\s+(?:when|if))\b/i,
  /\b(?:tests?|specs?|asserts?|fails?|throws?|raises?|rejects?|errors?)\b.*\b(?:when|if|for|on)\b/i,
  /\b(?:return|returns)\s+.*\b(?:when|if)\b/i,
];

const PHRASED_SUBJECT = /\b(?:where\s+(?:is|are)|definition\s+of|declaration\s+of|references?\s+to|usages?\s+of|uses\s+of|callers\s+of|who\s+calls|what\s+calls|which\s+\w+\s+(?:call|use|import)s?)\s+(?:the\s+)?(?:(?:function|class|method|type|interface|struct|trait|enum|constant|variable|module)\s+)?[`'"]?([A-Za-z_$][\w$.:#]*)/i;

function matches(patterns: RegExp[], text: string): boolean {
  return patterns.some((re) => re.test(text));
}

export function kindOf(question: string): QuestionKind {
  if (matches(REFERENCES, question)) return 'references';
  if (matches(DEFINITION, question)) return 'definition';
  if (matches(CHANGE, question)) return 'change';
  if (matches(BEHAVIOUR, question)) return 'behaviour';
  return 'conceptual';
}

/** The code name the question is about: a phrased one ("where is X used"), else the most code-looking name. */
export function subjectOf(question: string, kind: QuestionKind, codeNames: readonly string[]): string | undefined {
  const phrased = PHRASED_SUBJECT.exec(question)?.[1]?.replace(/[.:#]+$/, '');
  if (phrased && !NOT_A_SUBJECT.has(phrased.toLowerCase()) && (codeNames.includes(phrased) || kind === 'definition' || kind === 'references')) {
    return phrased;
  }
  return codeNames[0];
}
