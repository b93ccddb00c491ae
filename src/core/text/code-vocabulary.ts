/**
 * Words that name constructs of program code ("func", "return", "comments", "constructor"). A question using one
 * is about code even when it names nothing the project defines ("Add short func with named return"), so the
 * oracle's plain-English gate, which keeps code out of answers to questions like "What is the meaning of life?",
 * must not refuse it. Compared by stem, so plurals and verb forms match.
 */
import { stem } from '../context/terms';

const WORDS = [
  'func', 'function', 'method', 'return', 'class', 'struct', 'interface', 'enum', 'trait', 'typedef', 'variable',
  'const', 'param', 'parameter', 'argument', 'field', 'property', 'constructor', 'callback', 'closure', 'lambda',
  'comment', 'docstring', 'import', 'export', 'module', 'package', 'crate', 'namespace', 'macro', 'generic',
  'exception', 'pointer', 'iterator', 'async', 'await', 'compiler', 'deprecated', 'endpoint', 'handler', 'refactor',
  'goroutine', 'decorator', 'annotation', 'overload', 'getter', 'setter', 'mutex', 'thread', 'regex', 'serializer',
];

const STEMS = new Set(WORDS.map(stem));

/** Whether one of `terms` (question words, lower-cased) names a construct of program code. */
export function namesCodeConstruct(terms: readonly string[]): boolean {
  return terms.some((t) => STEMS.has(stem(t)));
}
