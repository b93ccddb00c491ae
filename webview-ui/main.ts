/**
 * The Oracle panel's browser code. Renders only from host messages (src/protocol/webview.ts), builds DOM through
 * dom.ts (text is always text), and tells the host `ready` once it listens, so nothing the host sent earlier is lost.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { HostMessage } from '../src/protocol/webview';
import { MAX_QUESTION_CHARS } from '../src/protocol/webview';
import { clear, h, icon } from './dom';
import { send } from './host';
import { AnswerCard } from './views/answer';
import { bundleCard } from './views/bundle';
import { card } from './views/card';
import { graphCard } from './views/graph';
import { lintCard, mapCard, searchCard } from './views/lists';
import { whyCard } from './views/why';

const app = document.getElementById('app')!;
const feed = h('div', { class: 'feed', 'data-testid': 'feed', 'aria-live': 'polite' });
const empty = h('div', { class: 'empty' }, h('p', {}, 'Ask about this workspace: where something is defined, how it works, what depends on it.'),
  h('p', { class: 'meta' }, 'Answers cite the code and docs they come from; click a citation to open it.'));
const input = h('vscode-textarea', { placeholder: 'Ask the oracle… (Enter to send, Shift+Enter for a new line)', rows: 3, resize: 'vertical', 'data-testid': 'question', 'aria-label': 'Question' }) as HTMLElement & { value: string };
const explain = h('vscode-checkbox', { title: 'Show the retrieval paths and per-signal scores', 'data-testid': 'explain-toggle' }, 'Explain') as HTMLElement & { checked: boolean };
const askButton = h('vscode-button', { 'data-testid': 'ask', title: 'Ask (Enter)' }, 'Ask');
const newButton = h('vscode-button', { secondary: true, title: 'Start a new conversation', 'data-testid': 'new-conversation' }, icon('add'), ' New');
app.append(feed, h('div', { class: 'composer' }, input, h('div', { class: 'composer-actions' }, explain, h('span', { class: 'spacer' }), newButton, askButton)));
feed.appendChild(empty);

const asks = new Map<string, AnswerCard>();

function show(el: HTMLElement): void {
  empty.remove();
  feed.appendChild(el);
  el.scrollIntoView({ block: 'start' });
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
      show(c.el);
      break;
    }
    case 'askEvent':
      asks.get(m.id)?.apply(m.event);
      break;
    case 'signals':
      asks.get(m.id)?.signals(m.nodes);
      break;
    case 'askEnded':
      asks.get(m.id)?.ended(m.cancelled, m.error);
      break;
    case 'bundle':
      show(bundleCard(m.refIds, m.result));
      break;
    case 'why':
      show(whyCard(m.result));
      break;
    case 'map':
      show(mapCard(m.map));
      break;
    case 'search':
      show(searchCard(m.query, m.hits));
      break;
    case 'lint':
      show(lintCard(m.report));
      break;
    case 'graph':
      show(graphCard(m.refIds, m.view));
      break;
    case 'error':
      show(card('error', 'error', m.title, h('p', {}, m.message)));
      break;
    case 'cleared':
      asks.clear();
      clear(feed);
      feed.appendChild(empty);
      break;
    case 'prefill':
      input.value = m.question;
      input.focus();
      break;
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as HostMessage | undefined;
  if (!m || typeof m !== 'object' || typeof m.type !== 'string') return;
  try {
    handle(m);
  } catch (err) {
    show(card('error', 'error', 'The panel could not show a result', h('p', {}, String(err))));
  }
});
send({ type: 'ready' });
