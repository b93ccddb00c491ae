/**
 * The Oracle panel's browser code, for both places it runs (body[data-mode]): the sidebar holds the conversation
 * (question box, answers, search and lint) and the editor-area tab holds the wide results (bundles, why-trees, the
 * repo map, the graph). Renders only from host messages (src/protocol/webview.ts), builds DOM through dom.ts (text is
 * always text), keeps what made its cards in the webview state (history.ts) so they survive a reload, and tells the
 * host `ready` once it listens, so nothing the host sent earlier is lost.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { HostMessage, PanelMode } from '../src/protocol/webview';
import { MAX_QUESTION_CHARS } from '../src/protocol/webview';
import { clear, h, icon } from './dom';
import { cardMessages, readSaved, remember } from './history';
import { saveState, savedState, send } from './host';
import { AnswerCard, pastAnswerCard } from './views/answer';
import { bundleCard } from './views/bundle';
import { card } from './views/card';
import { graphCard } from './views/graph';
import { lintCard, mapCard, searchCard } from './views/lists';
import { whyCard } from './views/why';

const mode: PanelMode = document.body.dataset.mode === 'editor' ? 'editor' : 'sidebar';
const app = document.getElementById('app')!;
const feed = h('div', { class: 'feed', 'data-testid': 'feed', 'aria-live': 'polite' });
const empty = mode === 'editor'
  ? h('div', { class: 'empty' }, h('p', {}, 'Context bundles, why-trees, the repo map and the graph open here, at full width.'))
  : h('div', { class: 'empty' }, h('p', {}, 'Ask about this workspace: where something is defined, how it works, what depends on it.'),
    h('p', { class: 'meta' }, 'Answers cite the code and docs they come from; click a citation to open it. Bundles, why-trees, the repo map and the graph open in an editor tab.'));
const input = h('vscode-textarea', { placeholder: 'Ask the oracle… (Enter to send, Shift+Enter for a new line)', rows: 3, resize: 'vertical', 'data-testid': 'question', 'aria-label': 'Question' }) as HTMLElement & { value: string };
const explain = h('vscode-checkbox', { title: 'Show the retrieval paths and per-signal scores', 'data-testid': 'explain-toggle' }, 'Explain') as HTMLElement & { checked: boolean };
const askButton = h('vscode-button', { 'data-testid': 'ask', title: 'Ask (Enter)' }, 'Ask');
const newButton = h('vscode-button', { secondary: true, title: 'Start a new conversation', 'data-testid': 'new-conversation' }, icon('add'), ' New');
// The panel's header: which model answers (issue 19, item 11), filled by the host's `model` message.
const modelLine = h('div', { class: 'model-line meta', 'data-testid': 'model' });
if (mode === 'sidebar') app.append(modelLine);
app.append(feed);
if (mode === 'sidebar') app.append(h('div', { class: 'composer' }, input, h('div', { class: 'composer-actions' }, explain, h('span', { class: 'spacer' }), newButton, askButton)));
feed.appendChild(empty);

const asks = new Map<string, AnswerCard>();
let saved: HostMessage[] = [];
let restoring = false;

function show(el: HTMLElement, key?: string): void {
  empty.remove();
  if (key && mode === 'sidebar') addOpenInEditor(el, key);
  feed.appendChild(el);
  if (!restoring) el.scrollIntoView({ block: 'start' });
}

/** The card's "Open in editor" action: the host shows what made the card `key` in the editor-area tab. */
function addOpenInEditor(el: HTMLElement, key: string): void {
  const header = el.querySelector('header');
  if (!header) return;
  const b = h('a', { href: '#', class: 'action open-in-editor', title: 'Open in editor', 'aria-label': 'Open in editor', role: 'button', 'data-testid': 'open-in-editor' }, icon('link-external'));
  b.addEventListener('click', (e) => {
    e.preventDefault();
    // The card's messages travel along: after a reload the host no longer holds them (a new extension host).
    send({ type: 'openInEditor', key, messages: cardMessages(saved, key) });
  });
  header.appendChild(b);
}

function submit(): void {
  const question = (input.value ?? '').trim();
  if (!question) return;
  if (question.length > MAX_QUESTION_CHARS) {
    show(card('error', 'error', 'Question too long', h('p', {}, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`)));
    return;
  }
  send({ type: 'ask', question, explain: explain.checked === true });
  input.value = '';
}

askButton.addEventListener('click', submit);
newButton.addEventListener('click', () => send({ type: 'newConversation' }));
input.addEventListener('keydown', (e) => {
  const k = e as KeyboardEvent;
  if (k.key === 'Enter' && !k.shiftKey && !k.isComposing) {
    k.preventDefault();
    submit();
  }
});

function handle(m: HostMessage): void {
  switch (m.type) {
    case 'askStarted': {
      const c = new AnswerCard(m.id, m.question, m.explain);
      asks.set(m.id, c);
      show(c.el, m.id);
      break;
    }
    case 'askEvent':
      asks.get(m.id)?.apply(m.event);
      break;
    case 'askEnded':
      asks.get(m.id)?.ended(m.cancelled, m.error);
      break;
    case 'bundle':
      show(bundleCard(m.refIds, m.result), m.key);
      break;
    case 'why':
      show(whyCard(m.result), m.key);
      break;
    case 'map':
      show(mapCard(m.map), m.key);
      break;
    case 'search':
      show(searchCard(m.query, m.hits), m.key);
      break;
    case 'lint':
      show(lintCard(m.report), m.key);
      break;
    case 'graph':
      show(graphCard(m.refIds, m.view), m.key);
      break;
    case 'error':
      show(card('error', 'error', m.title, h('p', {}, m.message)));
      break;
    case 'history':
      for (const x of m.exchanges) show(pastAnswerCard(x.question, x.answer, x.at));
      break;
    case 'cleared':
      asks.clear();
      clear(feed);
      feed.appendChild(empty);
      break;
    case 'model':
      clear(modelLine);
      modelLine.append(icon(m.model ? 'sparkle' : 'book'), ' ', m.model
        ? `Model: ${m.model}${m.origin === 'editor' ? ' (editor)' : m.origin === 'workspace' ? ' (workspace)' : ''}`
        : 'No model — answers from the evidence');
      modelLine.title = m.model ? 'Answers are written by this model from the evidence found' : 'No model is configured: answers quote the evidence found. Run "Context Oracle: Select Model for the Panel" to choose one.';
      break;
    case 'prefill':
      input.value = m.question;
      input.focus();
      break;
  }
}

function receive(m: HostMessage): void {
  try {
    handle(m);
  } catch (err) {
    show(card('error', 'error', 'The panel could not show a result', h('p', {}, String(err))));
  }
  saved = remember(saved, m);
  saveState({ v: 1, messages: saved });
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as HostMessage | undefined;
  if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
  receive(m);
});

// Rebuild the cards this webview showed before a reload; the host sends the stored conversation only if there were none.
const before = readSaved(savedState());
restoring = true;
for (const m of before) receive(m);
restoring = false;
for (const c of asks.values()) c.ended(true); // an answer cut off by the reload is not still running

feed.lastElementChild?.scrollIntoView({ block: 'end' });
send({ type: 'ready', restored: before.length > 0 });
