/**
 * The surfaces for agents and chat: the `@oracle` participant, the language model tools and the MCP server
 * definition provider. Each API is feature-checked, so an older VS Code without it still activates the rest.
 */
import * as vscode from 'vscode';
import { registerLanguageModelTools, TOOL_NAMES } from './chat/lm-tools';
import { registerMcpProvider, type StdioDefinition } from './chat/mcp-provider';
import { registerChatParticipant } from './chat/participant';
import { errorMessage } from './errors';
import type { OracleClient } from './oracle-client';

export interface AgentFeatures {
  chat: boolean;
  /** Names of the registered language model tools. */
  tools: string[];
  mcp: boolean;
}

export function registerAgentSurfaces(context: vscode.ExtensionContext, client: OracleClient, log: vscode.LogOutputChannel): { features: AgentFeatures; mcpDefinitions: () => StdioDefinition[] } {
  const features: AgentFeatures = { chat: false, tools: [], mcp: false };
  const attempt = (what: string, f: () => void): void => {
    try {
      f();
    } catch (e) {
      log.warn(`${what} not registered: ${errorMessage(e)}`);
    }
  };
  attempt('chat participant', () => {
    const p = registerChatParticipant(context, client);
    if (p) {
      context.subscriptions.push(p);
      features.chat = true;
    }
  });
  attempt('language model tools', () => {
    const tools = registerLanguageModelTools(client);
    context.subscriptions.push(...tools);
    if (tools.length) features.tools = [...TOOL_NAMES];
  });
  let mcpDefinitions: () => StdioDefinition[] = () => [];
  attempt('MCP server definition provider', () => {
    const m = registerMcpProvider(context);
    mcpDefinitions = m.definitions;
    if (m.disposable) {
      context.subscriptions.push(m.disposable);
      features.mcp = true;
    }
  });
  return { features, mcpDefinitions: () => mcpDefinitions() };
}
