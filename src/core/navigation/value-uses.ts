/**
 * Value uses of a definition's name that reference captures miss (`f(name)`, `{ name }`, `export { name }`,
 * `typeof name`): occurrences outside comments and strings in a file that binds the name, minus what is lexically
 * something else — keys, declarations of other bindings, other import statements, JSX text — and nothing at all
 * from a file that declares a binding of the same name (a parameter or local shadowing it), since without scopes
 * its occurrences cannot be told apart.
 */
import { accepts, type Binding } from './bindings';
import { findOccurrences, type Occurrence } from './occurrences';
import type { DefinitionHit } from './types';

const DECLARATION = /(^|[^\p{L}\p{N}_$.])(function\*?|let|const|var|class|def|func|type|interface|enum|struct|fn|lambda)\s+$/u;
const PARAMS_OWNER = /(\bfunction\*?\s*[\p{L}\p{N}_$]*|\bdef\s+[\p{L}\p{N}_]+|\bfunc\s*(\([^)]*\)\s*)?[\p{L}\p{N}_]*|\blambda)\s*$/u;

export interface UseSite {
  line: number;
  column: number;
}

export function valueUses(text: string, language: string, def: DefinitionHit, inDefinitionFile: boolean, binding: Binding, otherImportLines: Set<number>): UseSite[] {
  // Renamed on import, the definition goes by its local name in this file, bare.
  const name = binding.localName ?? def.name;
  const accepted: Binding = binding.localName ? { link: binding.link, bound: true } : binding;
  const found = findOccurrences(text, name, language);
  if (!found?.length) return [];
  const lines = text.split('\n');
  const isDefinition = (o: Occurrence): boolean => inDefinitionFile && o.line === def.line && o.column === def.column;
  if (found.some((o) => !isDefinition(o) && declares(lines, o, name))) return [];
  const jsx = language === 'tsx' || language === 'jsx';
  const out: UseSite[] = [];
  for (const o of found) {
    // Inside its own definition a name is mostly a local of the same name or a recursive call the captures have.
    if (o.key || otherImportLines.has(o.line) || (inDefinitionFile && o.line >= def.line && o.line <= def.endLine)) continue;
    const line = lines[o.line - 1]!;
    const prefix = line.slice(0, o.column - 1);
    if (!accepts(accepted, prefix) || (jsx && isJsxText(line, o.column, name.length))) continue;
    out.push({ line: o.line, column: o.column });
  }
  return out;
}

/** Whether the occurrence declares a binding: `let name`, `function name`, or a parameter `(a, name) =>`. */
function declares(lines: string[], o: Occurrence, name: string): boolean {
  const line = lines[o.line - 1]!;
  const prefix = line.slice(0, o.column - 1);
  if (DECLARATION.test(prefix)) return true;
  const rest = line.slice(o.column - 1 + name.length);
  if (/^\s*=>/.test(rest)) return true;
  // A parameter list: the innermost open paren before it, its match after it, then a body or an owner keyword.
  let depth = 0;
  let open = -1;
  for (let k = prefix.length - 1; k >= 0; k--) {
    const c = prefix[k];
    if (c === ')') depth++;
    else if (c === '(' && depth-- === 0) { open = k; break; }
  }
  if (open < 0) return false;
  if (PARAMS_OWNER.test(prefix.slice(0, open))) return true;
  const after = [rest, ...lines.slice(o.line, o.line + 4)].join('\n');
  depth = 0;
  for (let k = 0; k < after.length; k++) {
    const c = after[k];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return /^\s*(:\s*[^=;{]+?)?\s*(=>|\{)/.test(after.slice(k + 1));
  }
  return false;
}

/** JSX text (`<h1>Hono</h1>`): after a tag's `>` with no code in between, before a `<` on the same line. */
function isJsxText(line: string, column: number, length: number): boolean {
  const before = line.slice(0, column - 1);
  const gt = before.lastIndexOf('>');
  if (gt < 0 || before[gt - 1] === '=' || /[{}()=;]/.test(before.slice(gt + 1))) return false;
  return /^[^{}()=;]*</.test(line.slice(column - 1 + length));
}
