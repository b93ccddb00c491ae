/**
 * A small, safe Markdown renderer for answers: escape-then-format by construction. The text is split into blocks and
 * inline tokens (markdown-parse.ts: linear time, no DOM) and turned into DOM nodes whose text is set with textContent,
 * so raw HTML in the input (a `<script>`, an `<img onerror>`) shows as the characters it is. Links are never real hrefs: `[n]` citations and
 * workspace paths call back into the panel, http(s) links go through the host, and every other scheme
 * (`javascript:`, `data:`, `command:`, …) is shown as plain text.
 */
import { actionLink, h } from './dom';
import { linkKind, parsePathRef } from './links';
import { parseInline, parseMarkdown, type Block, type Inline } from './markdown-parse';

export { linkKind, parsePathRef };

export interface MarkdownLinks {
  /** A `[n]` citation marker was clicked. */
  citation(n: number): void;
  /** A workspace path such as `src/a.ts:3-9` was clicked. */
  path(path: string, line?: number, endLine?: number): void;
  /** Whether `[n]` is a known citation (unknown numbers stay text). */
  hasCitation(n: number): boolean;
}

/** Inline Markdown (code, citations, links, bold, italic) as nodes. */
export function renderInline(text: string, links: MarkdownLinks): Node[] {
  return inlineNodes(parseInline(text), links);
}

function inlineNodes(tokens: Inline[], links: MarkdownLinks): Node[] {
  return tokens.map((t) => inlineNode(t, links));
}

function inlineNode(t: Inline, links: MarkdownLinks): Node {
  switch (t.kind) {
    case 'text':
      return document.createTextNode(t.text);
    case 'code': {
      const ref = parsePathRef(t.code);
      return ref ? actionLink(h('code', {}, t.code), `Open ${t.code}`, () => links.path(ref.path, ref.line, ref.endLine), { class: 'path-link' }) : h('code', {}, t.code);
    }
    case 'citation':
      return links.hasCitation(t.n)
        ? actionLink(`[${t.n}]`, `Open citation ${t.n}`, () => links.citation(t.n), { class: 'citation-link', 'data-n': String(t.n) })
        : document.createTextNode(t.raw);
    case 'link': {
      const { label, url } = t;
      const kind = linkKind(url);
      if (kind === 'citation' && links.hasCitation(Number(url))) {
        return actionLink(label, `Open citation ${url}`, () => links.citation(Number(url)), { class: 'citation-link', 'data-n': url });
      }
      if (kind === 'path') {
        const ref = parsePathRef(url)!;
        return actionLink(label, `Open ${url}`, () => links.path(ref.path, ref.line, ref.endLine), { class: 'path-link' });
      }
      // Shown, not followed: the webview cannot navigate, and the user can copy it.
      if (kind === 'external') return h('span', { class: 'external-link', title: url }, label, ' (', url, ')');
      return h('span', { class: 'refused-link', title: 'link refused' }, t.raw);
    }
    case 'strong':
      return h('strong', {}, ...inlineNodes(t.children, links));
    case 'em':
      return h('em', {}, ...inlineNodes(t.children, links));
  }
}

function blockNode(b: Block, links: MarkdownLinks): Node {
  switch (b.kind) {
    case 'paragraph':
      return h('p', {}, ...inlineNodes(b.inline, links));
    case 'code':
      return h('pre', { class: 'code-block' }, h('code', { lang: b.lang }, b.text));
    case 'heading':
      return h(`h${Math.min(6, b.level + 2)}`, {}, ...inlineNodes(b.inline, links));
    case 'quote':
      return h('blockquote', {}, ...inlineNodes(b.inline, links));
    case 'list':
      return h(b.ordered ? 'ol' : 'ul', {}, ...b.items.map((item) => h('li', {}, ...inlineNodes(item.inline, links),
        ...item.continuations.map((c) => h(c.kind === 'quote' ? 'blockquote' : 'div', {}, ...inlineNodes(c.inline, links))))));
  }
}

/** An answer as DOM: paragraphs, fenced code, headings (two levels down), quotes, lists. */
export function renderMarkdown(text: string, links: MarkdownLinks): DocumentFragment {
  const frag = document.createDocumentFragment();
  for (const b of parseMarkdown(text)) frag.appendChild(blockNode(b, links));
  return frag;
}
