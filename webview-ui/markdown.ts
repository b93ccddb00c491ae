/**
 * A small, safe Markdown renderer for answers: escape-then-format by construction. The text is split into blocks and
 * inline tokens and turned into DOM nodes whose text is set with textContent, so raw HTML in the input (a
 * `<script>`, an `<img onerror>`) shows as the characters it is. Links are never real hrefs: `[n]` citations and
 * workspace paths call back into the panel, http(s) links go through the host, and every other scheme
 * (`javascript:`, `data:`, `command:`, …) is shown as plain text.
 */
import { actionLink, h } from './dom';
import { linkKind, parsePathRef } from './links';

export { linkKind, parsePathRef };

export interface MarkdownLinks {
  /** A `[n]` citation marker was clicked. */
  citation(n: number): void;
  /** A workspace path such as `src/a.ts:3-9` was clicked. */
  path(path: string, line?: number, endLine?: number): void;
  /** Whether `[n]` is a known citation (unknown numbers stay text). */
  hasCitation(n: number): boolean;
}

// Inline tokens, tried left to right: code span, citation [n], link [text](url), bold, italic.
const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\[(\d{1,3})\](?!\()|\[([^\]\n]{1,500})\]\(([^)\s]{0,2000})\)|\*\*([^*\n]+)\*\*|__([^_\n]+)__|(?<![\w*])\*([^*\n]+)\*(?!\w)|(?<!\w)_([^_\n]+)_(?!\w)/g;

export function renderInline(text: string, links: MarkdownLinks): Node[] {
  const out: Node[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(document.createTextNode(text.slice(last, at)));
    last = at + m[0].length;
    if (m[1] !== undefined) {
      const code = m[2]!.trim();
      const ref = parsePathRef(code);
      out.push(ref ? actionLink(h('code', {}, code), `Open ${code}`, () => links.path(ref.path, ref.line, ref.endLine), { class: 'path-link' }) : h('code', {}, code));
    } else if (m[3] !== undefined) {
      const n = Number(m[3]);
      out.push(links.hasCitation(n)
        ? actionLink(`[${n}]`, `Open citation ${n}`, () => links.citation(n), { class: 'citation-link', 'data-n': String(n) })
        : document.createTextNode(m[0]));
    } else if (m[4] !== undefined) {
      const label = m[4];
      const url = m[5] ?? '';
      const kind = linkKind(url);
      if (kind === 'citation' && links.hasCitation(Number(url))) {
        out.push(actionLink(label, `Open citation ${url}`, () => links.citation(Number(url)), { class: 'citation-link', 'data-n': url }));
      } else if (kind === 'path') {
        const ref = parsePathRef(url)!;
        out.push(actionLink(label, `Open ${url}`, () => links.path(ref.path, ref.line, ref.endLine), { class: 'path-link' }));
      } else if (kind === 'external') {
        // Shown, not followed: the webview cannot navigate, and the user can copy it.
        out.push(h('span', { class: 'external-link', title: url }, label, ' (', url, ')'));
      } else {
        out.push(h('span', { class: 'refused-link', title: 'link refused' }, m[0]));
      }
    } else if (m[6] !== undefined || m[7] !== undefined) {
      out.push(h('strong', {}, ...renderInline(m[6] ?? m[7]!, links)));
    } else {
      out.push(h('em', {}, ...renderInline(m[8] ?? m[9]!, links)));
    }
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

export function renderMarkdown(text: string, links: MarkdownLinks): DocumentFragment {
  const frag = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  const paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length) frag.appendChild(h('p', {}, ...renderInline(paragraph.join('\n'), links)));
    paragraph.length = 0;
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) body.push(lines[i]!);
      i++;
      frag.appendChild(h('pre', { class: 'code-block' }, h('code', { lang: fence[2] || undefined }, body.join('\n'))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      frag.appendChild(h(`h${Math.min(6, heading[1]!.length + 2)}`, {}, ...renderInline(heading[2]!, links)));
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s*>\s?/, ''));
      frag.appendChild(h('blockquote', {}, ...renderInline(quoted.join('\n'), links)));
      continue;
    }
    const item = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[2]!);
      const list = h(ordered ? 'ol' : 'ul');
      for (; i < lines.length; i++) {
        const it = /^(\s*)([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(lines[i]!);
        if (it) {
          list.appendChild(h('li', {}, ...renderInline(it[3]!, links)));
        } else if (/^\s{2,}\S/.test(lines[i]!) && list.lastChild) {
          // A continuation line (indented) belongs to the item above: quotes under a list item, wrapped text.
          const cont = lines[i]!.trim();
          const li = list.lastChild as HTMLElement;
          li.appendChild(cont.startsWith('>') ? h('blockquote', {}, ...renderInline(cont.replace(/^>\s?/, ''), links)) : h('div', {}, ...renderInline(cont, links)));
        } else break;
      }
      frag.appendChild(list);
      continue;
    }
    if (!line.trim()) {
      flush();
      i++;
      continue;
    }
    paragraph.push(line);
    i++;
  }
  flush();
  return frag;
}
