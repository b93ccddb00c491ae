/**
 * The one reader of question files (`ask --question-file`, `context --question-file`, `def --from-question`): plain
 * text is the question itself; a file that starts with `{` is one {"question": …} object or JSON lines of them (the
 * evaluation harness's format); one that starts with `[` and parses is an array of them.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './args';

export function readQuestionFile(path: string, flag = '--question-file'): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${flag} ${path}: ${(e as Error).message}`);
  }
  const pick = (v: unknown): string => {
    const q = (v as { question?: unknown } | null)?.question;
    if (typeof q !== 'string' || !q.trim()) throw new UsageError(`${flag} ${path}: every entry needs a non-empty "question" string`);
    return q;
  };
  const start = text.trimStart();
  if (start.startsWith('[')) {
    // A plain question may start with a bracket ("[bug] why …"): only an array that parses is JSON.
    let whole: unknown;
    try { whole = JSON.parse(text); } catch { /* plain text */ }
    if (Array.isArray(whole)) return whole.map(pick);
  }
  if (!start.startsWith('{')) return [text.trim()];
  try {
    return [pick(JSON.parse(text))];
  } catch (e) {
    if (e instanceof UsageError) throw e;
  }
  try {
    return text.split('\n').filter((l) => l.trim()).map((l) => pick(JSON.parse(l)));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${flag} ${path} is not JSON ({"question": "..."}) nor JSON lines`);
  }
}

/** The one question of a command that takes one, from its arguments or its question file (not both). */
export function oneQuestion(positionals: string[], file: unknown, flag = '--question-file'): string {
  if (file === undefined) return positionals.join(' ');
  if (positionals.length) throw new UsageError(`give the question as arguments or with ${flag}, not both`);
  const questions = readQuestionFile(String(file), flag);
  if (questions.length !== 1) throw new UsageError(`${flag} ${String(file)} holds ${questions.length} questions; this command takes one`);
  return questions[0]!;
}
