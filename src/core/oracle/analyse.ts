/**
 * Query analysis: what kind of question this is (definition, references, expected behaviour, recent change or
 * conceptual), the code name it is about, and the content words retrieval and the relevance gate work with.
 */
import { extractEntities } from '../context/entities';
import { textTerms } from '../context/terms';
import type { QuestionAnalysis, QuestionKind } from './types';

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

/** Words that say what kind of question it is rather than what it is about; left out of relevance. */
const INTENT_WORDS = new Set(`used use uses using called call calls caller callers invoked invoke referenced reference references
usage usages imported instantiated site sites defined define declared declaration definition implemented located
location live lives come comes recent recently lately change changed changes changing commit commits committed history
blame changelog regression regressions happen happens happened expected expect expects behaviour behavior behaviours
behaviors supposed explain explained describe work works working find show tell know mean means meant project code
codebase repository repo file files`.split(/\s+/).filter(Boolean));

const PRONOUN = /\b(?:it|its|this|that|these|those|them|they|the\s+same)\b/i;
const PHRASED_SUBJECT = /\b(?:where\s+(?:is|are)|definition\s+of|declaration\s+of|references?\s+to|usages?\s+of|uses\s+of|callers\s+of|who\s+calls|what\s+calls|which\s+\w+\s+(?:call|use|import)s?)\s+(?:the\s+)?(?:(?:function|class|method|type|interface|struct|trait|enum|constant|variable|module)\s+)?[`'"]?([A-Za-z_$][\w$.:#]*)/i;
const NOT_A_SUBJECT = new Set(['the', 'a', 'an', 'it', 'this', 'that', 'there', 'function', 'class', 'method', 'type', 'we', 'i', 'you']);

function matches(patterns: RegExp[], text: string): boolean {
  return patterns.some((re) => re.test(text));
}

function kindOf(question: string): QuestionKind {
  if (matches(REFERENCES, question)) return 'references';
  if (matches(DEFINITION, question)) return 'definition';
  if (matches(CHANGE, question)) return 'change';
  if (matches(BEHAVIOUR, question)) return 'behaviour';
  return 'conceptual';
}

/** The code name the question is about: a phrased one ("where is X used"), else the most code-looking entity. */
function subjectOf(question: string, kind: QuestionKind, codeNames: string[]): string | undefined {
  const phrased = PHRASED_SUBJECT.exec(question)?.[1]?.replace(/[.:#]+$/, '');
  if (phrased && !NOT_A_SUBJECT.has(phrased.toLowerCase()) && (codeNames.includes(phrased) || kind === 'definition' || kind === 'references')) {
    return phrased;
  }
  return codeNames[0];
}

/** Terms the conversation's earlier subject contributes to a follow-up question. */
export interface ConversationHint {
  subject?: string;
}

export function analyseQuestion(question: string, hint: ConversationHint = {}): QuestionAnalysis {
  const kind = kindOf(question);
  const entities = extractEntities(question);
  // Names with code shape (quoted, CamelCase, snake_case, dotted, paths) are subjects; plain words are not.
  const codeNames = entities.filter((e) => e.kind !== 'word' && !(e.kind === 'camel' && e.confidence < 0.7)).map((e) => e.text);
  let subject = subjectOf(question, kind, codeNames);
  let fromConversation = false;
  if (!subject && hint.subject && PRONOUN.test(question)) {
    subject = hint.subject;
    fromConversation = true;
  }
  const terms = [...new Set([...textTerms(question), ...(fromConversation && subject ? textTerms(subject) : [])])]
    .filter((t) => !INTENT_WORDS.has(t));
  const boostTests = kind === 'behaviour' || /\b(?:tests?|specs?|testing)\b/i.test(question);
  return {
    kind,
    ...(subject ? { subject } : {}),
    entities: codeNames.filter((n) => n !== subject),
    terms,
    boostTests,
    ...(fromConversation ? { subjectFromConversation: true } : {}),
  };
}

/** The last segment of a qualified name (`auth.service.login` → `login`), which is what symbols are named. */
export function shortName(name: string): string {
  return name.split(/::|->|[.#/]/).filter(Boolean).pop() ?? name;
}
