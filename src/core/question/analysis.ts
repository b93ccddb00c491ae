/**
 * One analysis of a question, made once per request by whoever receives it (the engine's context method, the
 * oracle's ask) and handed down: smart context reads its entities, full-text query and test/locate flags, the oracle
 * its kind, subject and terms, code navigation is asked about its subject. Nothing downstream parses the text again.
 */
import { questionTerms, textTerms, type WeightedTerms } from '../context/terms';
import { INTENT_WORDS } from '../text/question-words';
import { extractEntities, mentionsTests, type ExtractedEntity } from './entities';
import { kindOf, subjectOf, type QuestionKind } from './kind';

export interface Question {
  /** The question as asked. */
  readonly text: string;
  readonly kind: QuestionKind;
  /** The code name the question is about, when its text names one (`createGreeter`, `auth.login`). */
  readonly subject?: string;
  /** Code-looking names, most confident first; plain words too, which count only when the index defines them. */
  readonly entities: readonly ExtractedEntity[];
  /** The entities with code shape (quoted, CamelCase, snake_case, dotted, paths): the names a subject can be. */
  readonly codeNames: readonly string[];
  /** Content words, identifier-aware, stopwords and intent words ("used", "defined", "history") dropped. */
  readonly terms: readonly string[];
  /** The full-text query: distinct terms, capped, the first line's words weighted up. */
  readonly query: WeightedTerms;
  /** The question asks where a named thing is defined ("where is X defined?"). */
  readonly locate: boolean;
  /** The question (its first line) is about tests themselves. */
  readonly aboutTests: boolean;
}

export function analyseQuestion(text: string): Question {
  const kind = kindOf(text);
  const entities = extractEntities(text);
  // Names with code shape are subjects; plain words and weak CamelCase (a capitalised English word) are not.
  const codeNames = entities.filter((e) => e.kind !== 'word' && !(e.kind === 'camel' && e.confidence < 0.7)).map((e) => e.text);
  const subject = subjectOf(text, kind, codeNames);
  return {
    text, kind, ...(subject ? { subject } : {}), entities, codeNames,
    terms: contentTerms(text), query: questionTerms(text),
    locate: entities.some((e) => e.subject), aboutTests: mentionsTests(text),
  };
}

/** Distinct content words of `text` in order: identifier-aware terms without the words that only say the intent. */
export function contentTerms(text: string): string[] {
  return [...new Set(textTerms(text))].filter((t) => !INTENT_WORDS.has(t));
}
