/**
 * The one reader of an answer stream (the engine's `ask`): each event goes to `onEvent` as it arrives and the `done`
 * event's result is returned. The CLI, the MCP tool and the language server all read answers through it.
 */
import { EngineError } from './errors';
import type { AskEvent, AskResult } from './oracle/types';

export async function collectAnswer(stream: AsyncIterable<AskEvent>, onEvent?: (event: AskEvent) => void): Promise<AskResult> {
  let result: AskResult | undefined;
  for await (const event of stream) {
    onEvent?.(event);
    if (event.type === 'done') result = event.result;
  }
  if (!result) throw new EngineError('internal', 'the oracle stream ended without a result');
  return result;
}
