/**
 * Language model tools for agent mode, declared in package.json `languageModelTools` (same names here, checked by a
 * unit test): get context, find definition, find references, repo map, why. Each returns plain text made from the
 * engine's answer.
 */
import * as vscode from 'vscode';
import type { OracleClient } from '../oracle-client';
import { definitionsText, mapText, referencesText, whyText } from './chat-text';
import { TOOL_NAMES, type ToolName } from './tool-names';

export { TOOL_NAMES };

interface ToolInputs {
  contextOracle_getContext: { question: string; maxTokens?: number };
  contextOracle_findDefinition: { symbol: string; limit?: number };
  contextOracle_findReferences: { symbol: string; limit?: number };
  contextOracle_repoMap: { scope?: string; maxTokens?: number };
  contextOracle_why: { refId: string };
}

type ToolRunners = { [K in ToolName]: (input: ToolInputs[K], token: vscode.CancellationToken) => Promise<string> };

const num = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined);

export function toolRunners(client: OracleClient): ToolRunners {
  return {
    contextOracle_getContext: async (i, token) => {
      const r = await client.request('contextOracle/context', { question: String(i.question ?? ''), format: 'markdown', ...(num(i.maxTokens) ? { maxTokens: num(i.maxTokens)! } : {}) }, token);
      return r.text || (r.empty ?? 'Nothing relevant found.');
    },
    contextOracle_findDefinition: async (i, token) => definitionsText(await client.request('contextOracle/definitions', { symbol: String(i.symbol ?? ''), limit: num(i.limit) ?? 10 }, token)),
    contextOracle_findReferences: async (i, token) => referencesText(await client.request('contextOracle/references', { symbol: String(i.symbol ?? ''), limit: num(i.limit) ?? 50 }, token)),
    contextOracle_repoMap: async (i, token) => mapText(await client.request('contextOracle/repoMap', {
      ...(typeof i.scope === 'string' && i.scope ? { scope: i.scope } : {}), ...(num(i.maxTokens) ? { maxTokens: num(i.maxTokens)! } : {}),
    }, token)),
    contextOracle_why: async (i, token) => whyText(await client.request('contextOracle/why', { refId: String(i.refId ?? '') }, token)),
  };
}

export function registerLanguageModelTools(client: OracleClient): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const runners = toolRunners(client);
  return TOOL_NAMES.map((name) => vscode.lm.registerTool<ToolInputs[typeof name]>(name, {
    async invoke(options, token) {
      try {
        const text = await (runners[name] as (i: unknown, t: vscode.CancellationToken) => Promise<string>)(options.input, token);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      } catch (e) {
        // The model reads the error as the tool's answer and can correct its input (suggestions included).
        const data = (e as { data?: { code?: string; detail?: { suggestions?: unknown } } }).data;
        const suggestions = Array.isArray(data?.detail?.suggestions) ? ` Suggestions: ${(data!.detail!.suggestions as unknown[]).join(', ')}.` : '';
        throw new Error(`${e instanceof Error ? e.message : String(e)}${suggestions}`);
      }
    },
    prepareInvocation(options) {
      const input = options.input as Record<string, unknown>;
      const subject = String(input.question ?? input.symbol ?? input.refId ?? input.scope ?? 'the workspace');
      return { invocationMessage: `Context Oracle: ${name.replace('contextOracle_', '')} for ${subject.slice(0, 80)}` };
    },
  }));
}
