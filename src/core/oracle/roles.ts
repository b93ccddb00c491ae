/**
 * What part a piece of evidence plays in an answer, and the order the answer gives them in. A code question is
 * answered where the behaviour happens, then how it is reached, then its tests, then docs; templates, changelogs,
 * lock files and generated copies are never where a code question's answer starts.
 */
import { classifyPath } from '../context/paths';
import { isCommonCall } from './code-facts';
import type { Evidence, QuestionAnalysis } from './types';

export type Role = 'where' | 'reached' | 'tests' | 'docs' | 'history' | 'notes' | 'boilerplate';

export const ROLE_TITLES: Record<Role, string> = {
  where: 'Where it happens',
  reached: 'How it is reached',
  tests: 'Tests',
  docs: 'Docs',
  history: 'History',
  notes: 'Notes',
  boilerplate: 'Also mentioned',
};

/** PR and issue templates, changelogs and release notes, lock files, licences and codes of conduct, generated copies. */
const BOILERPLATE = [
  /(^|\/)\.github\//i,
  /(^|\/)[^/]*template[^/]*\.(md|mdx|ya?ml|txt)$/i,
  /(^|\/)(changelog|changes|history|news|releases?|release[-_]notes|upgrading|migration)[^/]*\.(md|mdx|rst|txt)$/i,
  /(^|\/)(changelogs?|\.changeset|\.changes)\//i,
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.ya?ml|bun\.lockb?|cargo\.lock|poetry\.lock|pipfile\.lock|uv\.lock|gemfile\.lock|composer\.lock|go\.sum|flake\.lock|[^/]+\.lock)$/i,
  /(^|\/)(license|licence|copying|code_of_conduct|security|funding|sponsors|governance|expense_policy|project_charter)[^/]*$/i,
];

export function isBoilerplate(path: string): boolean {
  return BOILERPLATE.some((re) => re.test(path)) || classifyPath(path) === 'generated';
}

/** A question about the docs themselves, setup or releases: docs may lead it. */
const ABOUT_DOCS = /\b(?:docs?|documentation|documented|readme|guide|tutorial|install(?:ation|ing)?|set\s*up|setup|changelog|release\s+notes?|contribut\w*|licen[cs]e)\b/i;

/** Code leads the answer: every question but a change question (history leads) and one about the docs. */
export function codeLeads(a: QuestionAnalysis, question: string): boolean {
  return a.kind !== 'change' && !ABOUT_DOCS.test(question);
}

/** The role of one piece of evidence; `lead` is the symbol the answer is about, when there is one. */
export function roleOf(e: Evidence, lead?: string): Role {
  if (e.source === 'git') return 'history';
  if (e.source === 'threads') return 'notes';
  if (e.path && isBoilerplate(e.path)) return 'boilerplate';
  if (e.source === 'docs') return 'docs';
  if (e.path && classifyPath(e.path) === 'test') return 'tests';
  if (e.method === 'references') return 'reached';
  // A definition that calls the lead symbol reaches it, when the lead's name is distinctive enough to tell.
  const name = lead ? shortOf(lead) : undefined;
  if (name && !isCommonCall(name) && e.meta?.symbol !== lead && (e.meta?.calls ?? '').split(',').includes(name)) return 'reached';
  return 'where';
}

const shortOf = (name: string): string => name.split(/::|->|[.#/]/).filter(Boolean).pop() ?? name;

const CODE_ORDER: Role[] = ['where', 'reached', 'tests', 'docs', 'notes', 'history', 'boilerplate'];
const CHANGE_ORDER: Role[] = ['history', 'where', 'reached', 'tests', 'notes', 'docs', 'boilerplate'];
const DOCS_ORDER: Role[] = ['docs', 'where', 'reached', 'tests', 'notes', 'history', 'boilerplate'];

/**
 * Evidence in the order the answer cites it: by role (as the question's kind wants), best first within a role.
 * A change question keeps history first; a question about the docs keeps docs first.
 */
export function orderByRole<T extends { evidence: Evidence; pathScore?: number; exact?: boolean }>(ranked: T[], a: QuestionAnalysis, question: string, lead?: string): T[] {
  const order = codeLeads(a, question) ? CODE_ORDER : a.kind === 'change' ? CHANGE_ORDER : DOCS_ORDER;
  // Within where it happens, definitions come before top-level code (often imports and wiring).
  // The lead's own definition opens it: the answer's first sentence names it and cites it first.
  const rank = (c: T): number => order.indexOf(roleOf(c.evidence, lead))
    + (c.evidence.source === 'code' && !c.evidence.meta?.defLine ? 0.5 : 0)
    - (lead && c.evidence.meta?.symbol === lead && c.evidence.meta.defLine ? 0.25 : 0);
  // Within a role, code found by the code search keeps that search's order (it ranks files better than word
  // overlap does); exact lookups of the subject stay ahead of it.
  const out = ranked.map((c, i) => ({ c, i, r: rank(c) })).sort((x, y) => x.r - y.r || x.i - y.i).map((x) => x.c);
  const searched = (c: T): boolean => c.evidence.source === 'code' && c.evidence.method === 'context' && !c.exact && c.evidence.meta?.symbol !== lead;
  for (const r of new Set(out.map(rank))) {
    const at = out.flatMap((c, i) => (rank(c) === r && searched(c) ? [i] : []));
    const reordered = at.map((i) => out[i]!).sort((x, y) => (y.pathScore ?? 0) - (x.pathScore ?? 0));
    at.forEach((i, k) => { out[i] = reordered[k]!; });
  }
  return out;
}
