/**
 * How a file binds a definition's name, decided from its import link and the import statement's text: `bound`
 * when a bare `name` means the definition (same file, same package, a named or star import, a destructuring
 * `require`), otherwise only `alias.name` does (namespace and default imports, `import a.b`, Go packages).
 */
import type { FileLink } from './relations';

export interface Binding {
  link: FileLink;
  /** A bare `name` refers to the definition. */
  bound: boolean;
  /** When not bound: the qualifiers that reach it (`ns` in `ns.name`); undefined accepts any qualifier. */
  aliases?: string[];
  /** The import renames it (`import { name as local }`): bare `local` is the definition here, `name` is not. */
  localName?: string;
}

const MAX_STATEMENT_LINES = 40;
const STATEMENT_START = /^\s*(import|export|from|use)\b|require\s*\(|\bimport\s*\(/;

export function wordPattern(name: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_$])`, 'u');
}

/**
 * Where `name` appears in the import statement whose source string is on `importLine` (the names may sit on the
 * lines above it, up to the line the statement starts on).
 */
export function findInStatement(lines: string[], importLine: number, name: string): { line: number; column: number } | undefined {
  const word = wordPattern(name);
  for (let l = importLine; l >= 1 && l > importLine - MAX_STATEMENT_LINES; l--) {
    const text = lines[l - 1] ?? '';
    const m = word.exec(text);
    if (m) return { line: l, column: m.index + 1 };
    if (STATEMENT_START.test(text)) return undefined;
  }
  return undefined;
}

/** The lines of the import statement whose source string is on `importLine`. */
export function statementLines(lines: string[], importLine: number): number[] {
  const out: number[] = [];
  for (let l = importLine; l >= 1 && l > importLine - MAX_STATEMENT_LINES; l--) {
    out.push(l);
    if (STATEMENT_START.test(lines[l - 1] ?? '')) break;
  }
  return out;
}

function statementHasStar(lines: string[], importLine: number): boolean {
  for (let l = importLine; l >= 1 && l > importLine - MAX_STATEMENT_LINES; l--) {
    const text = lines[l - 1] ?? '';
    if (/(^|[\s,{(]|::)\*/.test(text)) return true;
    if (STATEMENT_START.test(text)) return false;
  }
  return false;
}

export function bindingOf(link: FileLink, name: string, lines: string[] | undefined): Binding {
  if (link.qualifiers) return { link, bound: false, aliases: link.qualifiers };
  const row = link.import;
  if (row && lines) {
    const at = findInStatement(lines, row.line, name);
    const renamed = at && /^\s+as\s+([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(lines[at.line - 1]!.slice(at.column - 1 + name.length));
    if (renamed) return { link, bound: false, aliases: [], localName: renamed[1]! };
  }
  if (!row || row.names.includes(name)) return { link, bound: true };
  // A names-free import (`require`, `import a.b`, Go) binds the bare name only by destructuring it or with `*`.
  const bound = row.names.length === 0 && lines !== undefined && (findInStatement(lines, row.line, name) !== undefined || statementHasStar(lines, row.line));
  return { link, bound };
}

const MEMBER = /([\p{L}_$][\p{L}\p{N}_$]*)?\s*(\?\.|\.|->)\s*$/u;

/** Whether an occurrence whose line starts with `before` is a use of the definition under `binding`. */
export function accepts(binding: Binding, before: string): boolean {
  const member = MEMBER.exec(before);
  if (binding.bound) return member === null;
  if (!member || member[2] === '->') return false;
  return binding.aliases === undefined || binding.aliases.includes(member[1] ?? '');
}
