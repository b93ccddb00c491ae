/**
 * Identifier occurrences of one name in source text, outside comments and strings, with the context that tells a
 * use from a property or a key: `x.name` (a member of x), `{ name: 1 }` (a key). Used on files whose imports bind
 * the name to a definition, where the index's reference captures miss value uses (`f(name)`, `{ name }`,
 * `export { name }`, `typeof name`). Supports JS/TS, Python and Go lexical rules; other languages give undefined.
 */

export interface Occurrence {
  line: number;
  /** 1-based, in UTF-16 units like the index's columns. */
  column: number;
  /** The identifier before a `.`/`?.` when the occurrence is a member access (`ns.name`), '' for `(expr).name`. */
  qualifier?: string;
  /** An object key, named argument, struct-literal field or property declaration, not a use. */
  key: boolean;
}

type Family = 'js' | 'py' | 'go';
const FAMILIES: Record<string, Family> = { typescript: 'js', tsx: 'js', javascript: 'js', jsx: 'js', python: 'py', go: 'go' };
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);
const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;

export function findOccurrences(text: string, name: string, language: string): Occurrence[] | undefined {
  const family = FAMILIES[language];
  if (!family) return undefined;
  const out: Occurrence[] = [];
  if (!text.includes(name)) return out;
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let prevSig = '';
  let prevWord = '';

  const advanceTo = (end: number): void => {
    for (let k = i; k < end && k < n; k++) if (text[k] === '\n') { line++; lineStart = k + 1; }
    i = Math.min(end, n);
  };
  const skipQuoted = (quote: string, escapes: boolean): void => {
    let k = i + quote.length;
    while (k < n && !text.startsWith(quote, k)) {
      if (escapes && text[k] === '\\') k++;
      else if (quote.length === 1 && quote !== '`' && text[k] === '\n') break; // unterminated single-line string
      k++;
    }
    advanceTo(k + quote.length);
    prevSig = '"';
  };
  const record = (start: number): void => {
    let b = start - 1;
    while (b >= 0 && (text[b] === ' ' || text[b] === '\t')) b--;
    let qualifier: string | undefined;
    if (text[b] === '.' && text[b - 1] !== '.') {
      let q = b - 1;
      if (text[q] === '?') q--;
      const end = q + 1;
      while (q >= 0 && IDENT_PART.test(text[q]!)) q--;
      qualifier = text.slice(q + 1, end);
    }
    let a = start + name.length;
    while (a < n && (text[a] === ' ' || text[a] === '\t')) a++;
    const before = text[b] ?? '\n';
    const keyPosition = before === '{' || before === ',' || before === '(' || before === ';' || before === '\n';
    const next = text[a] === '?' && text[a + 1] === ':' ? ':' : text[a];
    const key = keyPosition && ((next === ':' && text[a + 1] !== ':') || (family === 'py' && next === '=' && text[a + 1] !== '='));
    out.push({ line, column: start - lineStart + 1, ...(qualifier !== undefined ? { qualifier } : {}), key });
  };

  // Code until an unmatched `}` (the end of a template expression) or the end of the text.
  const scanCode = (inTemplate: boolean): void => {
    let depth = 0;
    while (i < n) {
      const c = text[i]!;
      if (c === '\n' || c === ' ' || c === '\t' || c === '\r') { advanceTo(i + 1); continue; }
      if (family !== 'py' && c === '/' && text[i + 1] === '/') { const e = text.indexOf('\n', i); advanceTo(e < 0 ? n : e); continue; }
      if (family !== 'py' && c === '/' && text[i + 1] === '*') { const e = text.indexOf('*/', i + 2); advanceTo(e < 0 ? n : e + 2); continue; }
      if (family === 'py' && c === '#') { const e = text.indexOf('\n', i); advanceTo(e < 0 ? n : e); continue; }
      if (c === '`' && family === 'js') { scanTemplate(); continue; }
      if (c === '`' && family === 'go') { skipQuoted('`', false); continue; }
      if (c === '"' || c === "'") {
        const triple = family === 'py' && text.startsWith(c.repeat(3), i);
        skipQuoted(triple ? c.repeat(3) : c, true);
        continue;
      }
      // A `/` after `<` is a JSX closing tag (`</Suspense>`), not a regular expression.
      if (family === 'js' && c === '/' && (prevSig === '' || '(,=:[!&|?{};+-*%>~^'.includes(prevSig) || (prevSig === 'a' && REGEX_AFTER_WORD.has(prevWord)))) {
        skipRegex();
        continue;
      }
      if (IDENT_START.test(c)) {
        let e = i + 1;
        while (e < n && IDENT_PART.test(text[e]!)) e++;
        const word = text.slice(i, e);
        if (family === 'py' && /^[rRbBuUfF]{1,2}$/.test(word) && (text[e] === '"' || text[e] === "'")) {
          advanceTo(e);
          const q = text[e]!;
          skipQuoted(text.startsWith(q.repeat(3), e) ? q.repeat(3) : q, !/[rR]/.test(word));
          continue;
        }
        if (word === name) record(i);
        prevSig = 'a';
        prevWord = word;
        advanceTo(e);
        continue;
      }
      if (inTemplate && c === '}' && depth === 0) { advanceTo(i + 1); return; }
      if (c === '{') depth++;
      else if (c === '}') depth--;
      prevSig = c;
      advanceTo(i + 1);
    }
  };
  const scanTemplate = (): void => {
    advanceTo(i + 1);
    while (i < n && text[i] !== '`') {
      if (text[i] === '\\') advanceTo(i + 2);
      else if (text[i] === '$' && text[i + 1] === '{') { advanceTo(i + 2); scanCode(true); }
      else advanceTo(i + 1);
    }
    advanceTo(i + 1);
    prevSig = '"';
  };
  const skipRegex = (): void => {
    let k = i + 1;
    let inClass = false;
    while (k < n && text[k] !== '\n') {
      if (text[k] === '\\') k++;
      else if (text[k] === '[') inClass = true;
      else if (text[k] === ']') inClass = false;
      else if (text[k] === '/' && !inClass) break;
      k++;
    }
    while (k + 1 < n && /[a-z]/.test(text[k + 1]!)) k++;
    advanceTo(k + 1);
    prevSig = '"';
  };

  scanCode(false);
  return out;
}
