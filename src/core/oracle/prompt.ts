/** The chat messages for synthesis: instructions, the conversation so far, then the question with its evidence. */
import type { ChatMessage } from '../llm/chat-completions';
import type { ConversationView } from './conversation';
import type { QuestionAnalysis } from './types';

const SYSTEM = [
  'You are Context Oracle. You answer questions about one software project for developers and coding agents.',
  'Use only the numbered evidence and the conversation below. Cite every claim with the number of its evidence in',
  'square brackets, like [2]; cite file paths and symbol names exactly as the evidence gives them. If the evidence',
  'does not answer the question, say what is missing instead of guessing. Be concise.',
].join(' ');

const KIND_HINT: Record<QuestionAnalysis['kind'], string> = {
  definition: 'The question asks where something is defined: lead with the file and line of the definition.',
  references: 'The question asks where something is used: list the call sites by file and line.',
  behaviour: 'The question asks how something is expected to behave: prefer what tests assert.',
  change: 'The question asks about change: use the commits (who, when, why) and the code they touched.',
  conceptual: 'The question asks how something works: explain the flow across the evidence.',
};

export function buildMessages(question: string, a: QuestionAnalysis, blocks: string[], map: string | undefined, conversation?: ConversationView): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  if (conversation?.summary) messages.push({ role: 'system', content: `Earlier in this conversation (summary):\n${conversation.summary.text}` });
  for (const x of conversation?.recent ?? []) {
    messages.push({ role: 'user', content: x.tool === 'ask_oracle' ? x.input : `[${x.tool}] ${x.input}` });
    messages.push({ role: 'assistant', content: x.output });
  }
  const parts = [
    `Question: ${question}`,
    `${KIND_HINT[a.kind]}${a.subject ? ` Subject: ${a.subject}.` : ''}`,
    `Evidence:\n\n${blocks.join('\n\n')}`,
    ...(map ? [`Repository map (where the evidence sits in the codebase):\n${map}`] : []),
  ];
  messages.push({ role: 'user', content: parts.join('\n\n') });
  return messages;
}
