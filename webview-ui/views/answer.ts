/**
 * One question and its answer as it streams: phases, the answer rendered as safe Markdown with numbered citation
 * links, the citations and evidence excerpts (text only), a stop button while it runs, and the explain data
 * (retrieval paths, candidate scores, reranking) when asked for.
 */
import type { AskEvent, AskResult, Citation, Evidence, ExplainData, SignalRow } from '../../src/protocol/webview';
import { actionLink, append, clear, h, icon } from '../dom';
import { timeAgo } from '../plain';
import { openPath, send } from '../host';
import { renderMarkdown } from '../markdown';

export class AnswerCard {
  readonly el: HTMLElement;
  private readonly phaseEl: HTMLElement;
  private readonly answerEl: HTMLElement;
  private readonly citationsEl: HTMLElement;
  private readonly evidenceEl: HTMLElement;
  private readonly explainEl: HTMLElement;
  private readonly stopButton: HTMLElement;
  private text = '';
  private citations = new Map<number, Citation>();
  private evidence: Evidence[] = [];
  private done = false;

  constructor(readonly id: string, question: string, private readonly explain: boolean) {
    this.stopButton = h('vscode-button', { secondary: true, title: 'Stop this answer', class: 'stop', 'data-testid': 'stop' }, 'Stop');
    this.stopButton.addEventListener('click', () => send({ type: 'stop', id }));
    this.phaseEl = h('div', { class: 'phase', 'aria-live': 'polite', 'data-testid': 'phase' }, h('vscode-progress-ring', { class: 'ring' }), h('span', {}, 'Starting…'));
    this.answerEl = h('div', { class: 'answer markdown', 'data-testid': 'answer' });
    this.citationsEl = h('ol', { class: 'citations', 'data-testid': 'citations' });
    this.evidenceEl = h('div', { class: 'evidence' });
    this.explainEl = h('div', { class: 'explain' });
    this.el = h('section', { class: 'card ask running', 'data-testid': 'ask-card' },
      h('header', { class: 'question' }, icon('comment-discussion'), h('span', { class: 'question-text' }, question), this.stopButton),
      this.phaseEl, this.answerEl, this.citationsEl, this.evidenceEl, this.explainEl);
  }

  apply(event: AskEvent): void {
    switch (event.type) {
      case 'phase':
        this.setPhase(event.message);
        break;
      case 'evidence':
        this.citations.set(event.citation.n, event.citation);
        this.evidence.push(event.evidence);
        break;
      case 'answer':
        this.text += event.delta;
        this.renderAnswer();
        break;
      case 'citations':
        this.citations = new Map(event.citations.map((c) => [c.n, c]));
        this.renderAnswer();
        break;
      case 'done':
        this.finish(event.result);
        break;
      default:
        break;
    }
  }

  ended(cancelled: boolean, error?: string): void {
    if (this.done) return;
    this.done = true;
    this.el.classList.remove('running');
    this.stopButton.remove();
    clear(this.phaseEl);
    append(this.phaseEl, [icon(cancelled ? 'debug-stop' : 'error'), h('span', {}, cancelled ? 'Stopped.' : `Failed: ${error ?? 'unknown error'}`)]);
    this.el.classList.add(cancelled ? 'stopped' : 'failed');
  }

  /** Per-signal scores of the code candidates (explain), one row per node, one column per signal. */
  private signals(rows: SignalRow[]): void {
    if (!rows.length) return;
    const names = Object.keys(rows[0]!.signals);
    const table = h('table', { class: 'scores', 'data-testid': 'signal-scores' },
      h('tr', {}, h('th', {}, 'code'), h('th', {}, 'score'), ...names.map((n) => h('th', {}, n))),
      ...rows.map((r) => h('tr', {},
        h('td', { title: r.reason }, actionLink(`${r.path}:${r.line}`, `Open ${r.path}:${r.line}`, () => openPath(r.path, r.line), { class: 'path-link' })),
        h('td', {}, r.score.toFixed(3)), ...names.map((n) => h('td', {}, (r.signals[n] ?? 0).toFixed(2))))));
    this.explainEl.appendChild(h('vscode-collapsible', { heading: 'Explain: per-signal scores of the code', open: true }, h('div', { class: 'signal-scroll' }, table)));
  }

  private setPhase(message: string): void {
    if (this.done) return;
    clear(this.phaseEl);
    append(this.phaseEl, [h('vscode-progress-ring', { class: 'ring' }), h('span', {}, message)]);
  }

  private renderAnswer(): void {
    clear(this.answerEl);
    this.answerEl.appendChild(renderMarkdown(this.text, {
      citation: (n) => this.openCitation(n),
      path: (p, line, endLine) => openPath(p, line, endLine),
      hasCitation: (n) => this.citations.has(n),
    }));
  }

  private openCitation(n: number): void {
    const c = this.citations.get(n);
    if (c?.path) openPath(c.path, c.line, c.endLine);
  }

  private finish(result: AskResult): void {
    this.done = true;
    this.text = result.answer;
    this.citations = new Map(result.citations.map((c) => [c.n, c]));
    this.evidence = result.evidence;
    this.renderAnswer();
    this.el.classList.remove('running');
    this.el.classList.add('done');
    this.stopButton.remove();
    clear(this.phaseEl);
    const s = result.stats;
    const who = result.mode === 'model' ? `Answered by ${result.model ?? 'a model'}` : result.noContext ? 'Nothing relevant found' : 'Answered from the evidence';
    const cites = `${s.citations} citation${s.citations === 1 ? '' : 's'}`;
    // A check mark only for an answer; "nothing found" is not a success.
    append(this.phaseEl, [icon(result.noContext ? 'info' : 'check'), h('span', { class: 'meta', title: `${s.contextTokens} of ${s.budget} tokens of context` },
      `${who} in ${(s.totalMs / 1000).toFixed(1)} s${result.noContext ? '' : ` · ${cites}`}`)]);
    if (result.noContext) this.el.classList.add('no-context');
    this.renderCitations();
    this.renderEvidence();
    if (this.explain && result.explain) this.renderExplain(result.explain);
  }

  private renderCitations(): void {
    clear(this.citationsEl);
    for (const c of [...this.citations.values()].sort((a, b) => a.n - b.n)) {
      const label = c.path
        ? actionLink(c.label, `Open ${c.label}`, () => this.openCitation(c.n), { class: 'citation-link', 'data-n': String(c.n) })
        : h('span', {}, c.label);
      this.citationsEl.appendChild(h('li', { 'data-n': String(c.n) }, label, h('span', { class: 'reason' }, ` — ${c.reason}`), c.quote ? h('blockquote', {}, c.quote) : null));
    }
  }

  private renderEvidence(): void {
    clear(this.evidenceEl);
    if (!this.evidence.length) return;
    const body = h('div', {});
    for (const e of this.evidence) {
      const where = e.path ? `${e.path}${e.line ? `:${e.line}${e.endLine && e.endLine !== e.line ? `-${e.endLine}` : ''}` : ''}` : e.commit ?? e.thread ?? e.source;
      const title = e.path ? actionLink(where, `Open ${where}`, () => openPath(e.path!, e.line, e.endLine), { class: 'path-link' }) : h('span', {}, where);
      body.appendChild(h('div', { class: 'excerpt' }, h('div', { class: 'excerpt-title' }, title, h('span', { class: 'reason' }, ` ${e.title} · ${e.reason}`)), h('pre', {}, e.text)));
    }
    this.evidenceEl.appendChild(h('vscode-collapsible', { heading: `Evidence (${this.evidence.length})`, 'data-testid': 'evidence' }, body));
  }

  private renderExplain(x: ExplainData): void {
    clear(this.explainEl);
    const fmt = (n: number): string => n.toFixed(3);
    const paths = h('table', { class: 'scores' }, h('tr', {}, h('th', {}, 'path'), h('th', {}, 'candidates'), h('th', {}, 'ms')),
      ...x.paths.map((p) => h('tr', {}, h('td', {}, `${p.source}/${p.method}${p.note ? ` (${p.note})` : ''}`), h('td', {}, p.candidates), h('td', {}, p.ms))));
    const candidates = h('table', { class: 'scores', 'data-testid': 'explain-scores' },
      h('tr', {}, h('th', {}, 'candidate'), h('th', {}, 'signal'), h('th', {}, 'relevance'), h('th', {}, 'score')),
      ...x.candidates.slice(0, 40).map((c) => h('tr', {}, h('td', { title: c.key }, c.title), h('td', {}, `${c.source}/${c.method}`), h('td', {}, fmt(c.relevance)), h('td', {}, fmt(c.score)))));
    const rerank = h('ul', {}, ...x.rerank.slice(0, 30).map((r) => h('li', {}, `${r.key}: ${fmt(r.before)} → ${fmt(r.after)} (${r.why})`)));
    const body = h('div', {}, h('h4', {}, 'Retrieval paths'), paths, h('h4', {}, 'Candidates and scores'), candidates,
      h('h4', {}, 'Reranking'), rerank, h('p', { class: 'meta' }, `Relevance cut-off ${fmt(x.gate.cutoff)}, best ${fmt(x.gate.best)}; wiring: ${x.wiring.join(', ')}`));
    this.explainEl.appendChild(h('vscode-collapsible', { heading: 'Explain: signals and scores', open: true, 'data-testid': 'explain' }, body));
    this.signals(x.signals ?? []);
  }
}

/** A question and answer from the stored conversation (after a window reload): the text, its time, no live parts. */
export function pastAnswerCard(question: string, answer: string, at: number, now = Date.now()): HTMLElement {
  const body = h('div', { class: 'answer markdown', 'data-testid': 'answer' });
  body.appendChild(renderMarkdown(answer, { citation: () => undefined, path: (p, line, endLine) => openPath(p, line, endLine), hasCitation: () => false }));
  return h('section', { class: 'card ask done past', 'data-testid': 'ask-card' },
    h('header', { class: 'question' }, icon('comment-discussion'), h('span', { class: 'question-text' }, question)),
    h('div', { class: 'phase', 'data-testid': 'phase' }, icon('history'), h('span', { class: 'meta' }, `Earlier in this conversation${at ? `, ${timeAgo(at, now)}` : ''}`)), body);
}
