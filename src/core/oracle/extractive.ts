/**
 * The answer without a model. It opens with two to four sentences made from the evidence: which symbol does it and
 * where (file:line), what it says it does (its doc comment, else its signature), what it calls and what reaches it,
 * its tests, and the next place to read. Then the evidence grouped by the part it plays (where it happens, how it is
 * reached, tests, docs, history, notes), each with the reason it is there. Returned in parts so it streams like a
 * model's answer.
 */
import { roleOf, ROLE_TITLES, type Role } from './roles';
import type { Citation, Evidence, QuestionAnalysis, SourceReport } from './types';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** A call site of the lead symbol found by code navigation (not itself cited). */
export interface Caller {
  path: string;
  line: number;
  /** The symbol the call is in, when known. */
  symbol?: string;
}

export interface AnswerFacts {
  /** The symbol the answer is about: the best definition where the behaviour happens. */
  lead?: string;
  /** Places that reach the lead symbol, from code navigation. */
  callers?: Caller[];
}

interface Item {
  e: Evidence;
  c: Citation;
  role: Role;
}

const place = (c: Citation): string => code(c.path ? `${c.path}:${c.line}` : c.label);
const ref = (c: Citation): string => `${place(c)} [${c.n}]`;
const list = (xs: string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

function named(it: Item): string {
  return it.e.meta?.symbol ? code(it.e.meta.symbol) : it.e.source === 'docs' ? `"${it.e.title}"` : place(it.c);
}

/** Two to four sentences for a how/what/why question. */
function opening(items: Item[], facts: AnswerFacts): string {
  const where = items.filter((i) => i.role === 'where');
  const top = where.find((i) => i.e.meta?.symbol === facts.lead) ?? where[0];
  const out: string[] = [];
  if (top) {
    const doc = top.e.meta?.doc;
    const sig = top.e.meta?.signature;
    const at = top.e.meta?.defLine && top.c.path ? code(`${top.c.path}:${top.e.meta.defLine}`) : place(top.c);
    out.push(doc
      ? `${named(top)} at ${at} [${top.c.n}] is the closest match: ${doc.replace(/[.!?]*$/, '.')}`
      : `${named(top)} at ${at} [${top.c.n}] is the closest match${sig ? `; its signature is ${code(sig)}` : ''}.`);
    const calls = (top.e.meta?.calls ?? '').split(',').filter(Boolean).slice(0, 4);
    const reachedBy = items.filter((i) => i.role === 'reached').slice(0, 3).map((i) => `${named(i)} (${ref(i.c)})`);
    const cited = new Set(items.map((i) => `${i.c.path}:${i.c.line}`));
    const callers = (facts.callers ?? []).filter((c) => !cited.has(`${c.path}:${c.line}`)).slice(0, Math.max(0, 3 - reachedBy.length))
      .map((c) => (c.symbol ? `${code(c.symbol)} (${code(`${c.path}:${c.line}`)})` : code(`${c.path}:${c.line}`)));
    const reached = [...reachedBy, ...callers];
    if (calls.length && reached.length) out.push(`It calls ${list(calls.map(code))}, and is reached from ${list(reached)}.`);
    else if (calls.length) out.push(`It calls ${list(calls.map(code))}.`);
    else if (reached.length) out.push(`It is reached from ${list(reached)}.`);
    const test = items.find((i) => i.role === 'tests');
    const next = where.find((i) => i !== top && i.e.meta?.symbol && i.e.meta.symbol !== top.e.meta?.symbol)
      ?? where.find((i) => i !== top && i.c.path !== top.c.path);
    const tail: string[] = [];
    if (next) tail.push(next.e.meta?.symbol ? `read ${named(next)} at ${ref(next.c)} next` : `read ${ref(next.c)} next`);
    if (test) tail.push(`${ref(test.c)} tests it`);
    if (tail.length) out.push(`${tail[0]!.charAt(0).toUpperCase()}${tail[0]!.slice(1)}${tail[1] ? `; ${tail[1]}` : ''}.`);
    return out.join(' ');
  }
  const doc = items.find((i) => i.role === 'docs');
  if (doc) {
    out.push(`No code matched; the docs cover it in "${doc.e.title}" at ${ref(doc.c)}.`);
    const more = items.filter((i) => i !== doc && i.role === 'docs').slice(0, 2);
    if (more.length) out.push(`See also ${list(more.map((i) => `"${i.e.title}" (${ref(i.c)})`))}.`);
    return out.join(' ');
  }
  const first = items[0]!;
  return `The closest project context is ${ref(first.c)}: ${first.c.reason}.`;
}

function lead(a: QuestionAnalysis, items: Item[], facts: AnswerFacts): string {
  const evidence = items.map((i) => i.e);
  const subject = a.subject ? code(a.subject) : 'it';
  if (a.kind === 'definition') {
    const i = evidence.findIndex((e) => e.method === 'definition' || (e.meta?.paths ?? '').includes('definition'));
    if (i >= 0) {
      const it = items[i]!;
      const others = evidence.filter((e, k) => k !== i && e.method === 'definition').length;
      const doc = it.e.meta?.doc ? ` ${it.e.meta.doc.replace(/[.!?]*$/, '.')}` : it.e.meta?.signature ? ` Its signature: ${code(it.e.meta.signature)}.` : '';
      return `${subject} is defined at ${code(it.c.label)} [${it.c.n}]${others ? ` (${others} other definition${others > 1 ? 's' : ''} below)` : ''}.${doc}`;
    }
    return `No definition named ${subject} was found. ${opening(items, facts)}`;
  }
  if (a.kind === 'references') {
    const refs = items.filter((i) => i.e.method === 'references');
    if (refs.length) {
      const files = new Set(refs.map((i) => i.e.path)).size;
      const from = [...new Set(refs.map((i) => i.e.meta?.symbol).filter((s): s is string => !!s))].slice(0, 3);
      return `${subject} is used in ${refs.length} place${refs.length > 1 ? 's' : ''} across ${files} file${files > 1 ? 's' : ''}${from.length ? `, from ${list(from.map(code))} among others` : ''}; the first is ${ref(refs[0]!.c)}.`;
    }
    return `No use of ${subject} was found. ${opening(items, facts)}`;
  }
  if (a.kind === 'change') {
    const i = evidence.findIndex((e) => e.source === 'git');
    if (i >= 0) {
      const e = evidence[i]!;
      const c = items[i]!.c;
      const touched = items.find((x) => x.role === 'where');
      return `The most relevant change is ${code(c.label)} "${e.title}" by ${e.meta?.author ?? 'unknown'} on ${(e.meta?.date ?? '').slice(0, 10)} [${c.n}].${touched ? ` The code it concerns: ${named(touched)} at ${ref(touched.c)}.` : ''}`;
    }
    return `No commit history matched. ${opening(items, facts)}`;
  }
  return opening(items, facts);
}

/**
 * Which sources answered. Why one could not (`git rev-parse: fatal: …`, a stack) is a diagnostic for the result's
 * `sources` and --explain, not prose for the reader.
 */
function sourcesLine(sources: SourceReport[]): string {
  return `Sources searched: ${sources.map((s) => (s.status === 'ok' ? `${s.source} (${s.candidates})` : `${s.source} ${s.status}`)).join('; ')}.`;
}

/** The answer in streamable parts: the opening, then the evidence by role in citation order, then the sources. */
export function extractiveParts(a: QuestionAnalysis, evidence: Evidence[], citations: Citation[], sources: SourceReport[], facts: AnswerFacts = {}): string[] {
  const items: Item[] = evidence.map((e, i) => ({ e, c: citations[i]!, role: roleOf(e, facts.lead) }));
  const parts = [`${lead(a, items, facts)}\n`];
  let role: Role | undefined;
  for (const it of items) {
    if (it.role !== role) {
      role = it.role;
      parts.push(`\n${ROLE_TITLES[role]}:\n`);
    }
    const quote = it.c.quote ? `\n   > ${it.c.quote}` : '';
    parts.push(`[${it.c.n}] ${code(it.c.label)} — ${it.c.reason}${quote}\n`);
  }
  parts.push(`\n${sourcesLine(sources)}\n`);
  return parts;
}

export const NO_CONTEXT_ANSWER = 'No relevant project context found';

export function noContextAnswer(sources: SourceReport[], best: number): string {
  return `${NO_CONTEXT_ANSWER} for this question: nothing in the project held enough of it (best match covered ${Math.round(best * 100)} % of its words).\n${sourcesLine(sources)}\n`;
}

/** The citations list appended to a model's answer, so the answer carries them wherever it is pasted. */
export function citationList(citations: Citation[]): string {
  return `\n\nSources:\n${citations.map((c) => `[${c.n}] ${c.label}${c.kind === 'commit' || c.kind === 'doc' || c.kind === 'thread' ? ` — ${c.title}` : ''}`).join('\n')}\n`;
}
