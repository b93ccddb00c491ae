/**
 * The stored conversation as the panel shows it after a reload: the questions asked in the panel and their answers,
 * oldest first. Other tools' exchanges in the session (find_definition, …) are not panel cards. No 'vscode' import.
 */
import type { ConversationView } from '../../core';
import type { PastExchange } from '../../protocol/webview';

const ASK_TOOL = 'ask_oracle';

export function pastExchanges(view: ConversationView | null | undefined): PastExchange[] {
  return (view?.recent ?? []).filter((x) => x.tool === ASK_TOOL).map((x) => ({ question: x.input, answer: x.output, at: Date.parse(x.at) || 0 }));
}
