/**
 * Facts about a definition read straight from its lines, for an answer without a model: its doc comment (the
 * comment block above it, or a Python docstring below its signature), its signature line, and the names it calls.
 * Plain text scanning, language-agnostic: good enough to explain, never used to rank.
 */

const MAX_DOC_CHARS = 220;
const MAX_CALLS = 8;
/** Lines scanned above a definition for its comment, past decorators and attributes. */
const MAX_DOC_LINES = 40;

/** Control-flow words and common built-ins that look like calls but say nothing about what the code does. */
const NOT_CALLS = new Set(`if for while switch catch return function typeof await new super this self print len str int
list dict set tuple isinstance range sizeof match elif and or not in is def fn func sizeof defined assert require
import export from async yield throw else do try with lambda constructor Error TypeError push pop shift unshift slice
splice map filter reduce forEach indexOf lastIndexOf includes join split replace replaceAll trim trimStart trimEnd
toString toLowerCase toUpperCase charCodeAt charAt startsWith endsWith exec test keys values entries get has add
delete bind call apply then finally resolve reject from of assign freeze parse stringify append extend format items
unwrap expect clone into iter collect Some Ok Err Box Vec String fmt Println Printf Sprintf Errorf make cap copy
substring substr concat sort some every find findIndex fill flat flatMap at isArray Number Boolean Symbol Promise
Object Array Math min max floor ceil round abs Date now getattr setattr hasattr super encode decode strip lstrip rstrip`.split(/\s+/).filter(Boolean));

/** A name common enough that a call to it says little about which definition is meant (`add`, `get`, `match`). */
export function isCommonCall(name: string): boolean {
  return NOT_CALLS.has(name) || name.length < 5;
}

/** The first sentence of the definition's doc comment, cleaned of comment markers; undefined when it has none. */
export function docComment(lines: string[], line: number): string | undefined {
  const above = commentAbove(lines, line);
  const text = above ?? docstringBelow(lines, line);
  return text ? firstSentence(text) : undefined;
}

/** The first paragraph: up to a blank line, a code fence, an example or a tag. */
function firstParagraph(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (!l || /^(?:```|~~~|@\w|Example|Usage|Args:|Arguments:|Parameters|Returns?:|Raises:|>>>)/.test(l)) {
      if (out.length) break;
      continue;
    }
    out.push(l);
  }
  return out;
}

function commentAbove(lines: string[], line: number): string | undefined {
  let i = line - 2; // 0-based index of the line above the definition
  // Decorators, attributes and annotations sit between a comment and what it documents.
  while (i >= 0 && /^\s*(?:@[\w.]+|#\[|\[[A-Z]\w*)/.test(lines[i]!)) i--;
  const out: string[] = [];
  const stop = Math.max(0, i - MAX_DOC_LINES);
  if (i >= 0 && /\*\/\s*$/.test(lines[i]!)) {
    for (; i >= stop; i--) {
      out.unshift(lines[i]!);
      if (/^\s*\/\*/.test(lines[i]!)) break;
    }
    if (!/^\s*\/\*/.test(out[0] ?? '')) return undefined;
  } else {
    for (; i >= stop && /^\s*(?:\/\/\/?|#(?![!\[])|--)/.test(lines[i]!); i--) out.unshift(lines[i]!);
  }
  const text = firstParagraph(out.map((l) => l.replace(/^\s*(?:\/\*\*?|\*\/|\*(?!\/)|\/\/\/?|#|--)\s?/, '').replace(/\*\/\s*$/, '').trim())
    .filter((l) => !/^(?:eslint|prettier|istanbul|ts-|noqa|type:|pylint)/.test(l)));
  return text.length ? text.join(' ') : undefined;
}

/** A Python docstring: the first string statement after the `def`/`class` line (its signature may span lines). */
function docstringBelow(lines: string[], line: number): string | undefined {
  let i = line - 1;
  for (let k = 0; k < 8 && i < lines.length && !/:\s*(?:#.*)?$/.test(lines[i]!); k++) i++;
  const start = lines[i + 1];
  if (start === undefined) return undefined;
  const open = /^\s*[rRbBuU]?("""|''')(.*)$/.exec(start);
  if (!open) return undefined;
  const quote = open[1]!;
  const parts = [open[2]!];
  if (!open[2]!.includes(quote)) {
    for (let k = i + 2; k < Math.min(lines.length, i + 2 + MAX_DOC_LINES); k++) {
      parts.push(lines[k]!);
      if (lines[k]!.includes(quote)) break;
    }
  }
  const text = firstParagraph(parts.join('\n').split(quote)[0]!.split('\n').map((l) => l.trim())).join(' ');
  return text || undefined;
}

function firstSentence(text: string): string | undefined {
  const clean = text.replace(/\{@\w+\s+([^}]+)\}/g, '$1').replace(/\s+/g, ' ').trim();
  if (!/[A-Za-z]{3}/.test(clean)) return undefined;
  const m = /^(.+?[.!?])(?:\s|$)/.exec(clean);
  const sentence = (m ? m[1]! : clean).trim();
  return sentence.length > MAX_DOC_CHARS ? `${sentence.slice(0, MAX_DOC_CHARS - 1).trimEnd()}…` : sentence;
}

/** The signature: the definition's first line, trimmed (an opening brace and trailing spaces dropped). */
export function signatureLine(lines: string[], line: number): string {
  return (lines[line - 1] ?? '').trim().replace(/\s*\{\s*$/, '').slice(0, 160);
}

/** Names called within lines from..to (1-based, inclusive), in order of first call, the definition's own name left out. */
export function callsIn(lines: string[], from: number, to: number, own?: string): string[] {
  const out: string[] = [];
  // The signature line declares; the calls are in the body.
  for (let l = from + 1; l <= Math.min(to, lines.length) && out.length < MAX_CALLS; l++) {
    const text = (lines[l - 1] ?? '').replace(/\/\/.*$|#.*$/, '').replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
    for (const m of text.matchAll(/([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*\(/g)) {
      const name = m[1]!;
      if (name === own || NOT_CALLS.has(name) || name.length < 3 || out.includes(name)) continue;
      // `function name(` and `def name(` declare a nested function rather than call one.
      if (/(?:function|def|fn|func)\s+$/.test(text.slice(0, m.index))) continue;
      out.push(name);
      if (out.length >= MAX_CALLS) break;
    }
  }
  return out;
}
