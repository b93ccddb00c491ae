/**
 * The compact MU-style context text (documented in docs/context-format.md). One sigil per line says what the line
 * is: `!` a file, `$` a type, `#` a function or method, `=` a constant or variable, `-` code outside symbols,
 * `>` the call-site section; code follows its line indented by four spaces; `~0.83` marks relevance.
 */
import type { CallSite } from './call-sites';
import { dedent, oneLine, type ContextFormatter, type Selected } from './render';

const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'type', 'object', 'protocol', 'module']);
const CALLABLE_KINDS = new Set(['function', 'method', 'macro']);

export function sigilOf(kind: string): string {
  if (TYPE_KINDS.has(kind)) return '$';
  if (CALLABLE_KINDS.has(kind)) return '#';
  if (kind === 'file') return '-';
  return '=';
}

const lines = (a: number, b: number): string => (a === b ? `L${a}` : `L${a}-${b}`);

export const muFormatter: ContextFormatter = {
  header: (question) => `§ ${question.split('\n')[0]!.trim().slice(0, 200)}`,
  file: (path) => `! ${path}`,
  node({ node, mode }) {
    const name = node.symbol ?? '';
    const head = node.kind === 'file'
      ? `  - ${lines(node.lineStart, node.lineEnd)} ~${node.score.toFixed(2)}`
      : `  ${sigilOf(node.kind)} ${oneLine(node.signature, name)}  ${lines(node.lineStart, node.lineEnd)} ~${node.score.toFixed(2)}${node.symbol && !oneLine(node.signature, '').includes(name.split('.').pop()!) ? ` (${name})` : ''}`;
    if (mode === 'signature' || node.reason === 'class context') return head;
    const doc = node.doc ? node.doc.split('\n').map((l) => `    ${l.trim()}`) : [];
    return [head, ...doc, ...dedent(node.text).map((l) => (l ? `    ${l}` : ''))].join('\n');
  },
  callSitesHeader: () => '> call sites',
  callSite: (s: CallSite) => `  ${s.callee.split('.').pop()} <- ${s.path}:${s.line}${s.caller ? ` in ${s.caller}` : ''}: ${s.code}`,
  empty: (question, reason) => `§ ${question.split('\n')[0]!.trim().slice(0, 200)}\n(no relevant code: ${reason})`,
};
