/**
 * The oracle's view of a question (question/analysis.ts made it): its kind, the code name it is about (for a
 * follow-up such as "where is it used?", the conversation's earlier subject), the other code names, and the content
 * words retrieval and the relevance gate work with. This is the `analysis` an answer reports.
 */
import { contentTerms, type Question } from '../question/analysis';
import type { QuestionAnalysis } from './types';

const PRONOUN = /\b(?:it|its|this|that|these|those|them|they|the\s+same)\b/i;

/** Terms the conversation's earlier subject contributes to a follow-up question. */
export interface ConversationHint {
  subject?: string;
}

export function oracleAnalysis(question: Question, hint: ConversationHint = {}): QuestionAnalysis {
  let subject = question.subject;
  let fromConversation = false;
  if (!subject && hint.subject && PRONOUN.test(question.text)) {
    subject = hint.subject;
    fromConversation = true;
  }
  const terms = fromConversation && subject ? [...new Set([...question.terms, ...contentTerms(subject)])] : [...question.terms];
  const boostTests = question.kind === 'behaviour' || /\b(?:tests?|specs?|testing)\b/i.test(question.text);
  return {
    kind: question.kind,
    ...(subject ? { subject } : {}),
    entities: question.codeNames.filter((n) => n !== subject),
    terms,
    boostTests,
    ...(fromConversation ? { subjectFromConversation: true } : {}),
  };
}

/** The last segment of a qualified name (`auth.service.login` → `login`), which is what symbols are named. */
export function shortName(name: string): string {
  return name.split(/::|->|[.#/]/).filter(Boolean).pop() ?? name;
}
