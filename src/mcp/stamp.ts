/**
 * The freshness stamp on every answer that reads the index: the commit it was indexed at and the changed files not
 * in it yet, so a model can tell an answer that may be stale (and name the file, which commits it just in time).
 * Budgets keep STAMP_TOKENS free for it; long queues are shortened to fit.
 */
import { countTokens, type FreshnessStamp } from '../core';
import { STAMP_TOKENS } from './budget';
import type { ToolAnswer } from './tool';

export function stampAnswer(answer: ToolAnswer, stamp: FreshnessStamp): ToolAnswer {
  // Answers are one JSON object; the stamp goes in as its last field.
  if (!answer.text.endsWith('}')) return answer;
  const head = {
    ...(stamp.indexedHead ? { head: stamp.indexedHead.slice(0, 12) } : {}),
    // Index problems found since the last answer (a damaged journal that was repaired): shown once, never shortened.
    ...(stamp.warnings?.length ? { warnings: stamp.warnings } : {}),
  };
  let shown = stamp.queued.length;
  let field = render(head, stamp.queued, shown);
  while (shown > 0 && countTokens(field) > STAMP_TOKENS) field = render(head, stamp.queued, --shown);
  const text = `${answer.text.slice(0, -1)}${answer.text === '{}' ? '' : ','}${field}}`;
  // Counted whole: the tokenizer may merge across the seam, so the field's own count could be a token off.
  return { ...answer, text, tokens: answer.tokens - countTokens(answer.text) + countTokens(text) };
}

function render(head: { head?: string; warnings?: string[] }, queued: string[], shown: number): string {
  const more = queued.length - shown;
  return `"freshness":${JSON.stringify({ ...head, queued: queued.slice(0, shown), ...(more ? { queued_more: more } : {}) })}`;
}
