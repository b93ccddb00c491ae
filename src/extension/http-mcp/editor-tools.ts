/**
 * The tools the in-editor MCP endpoint serves: the editor's own language servers answering for this workspace.
 * `definition_at` / `references_at` take a place in a file; `find_definition` / `find_references` take a name and go
 * through the engine (which asks the same language servers first). Paths outside the workspace are refused, in
 * and out.
 */
import * as vscode from 'vscode';
import type { NavLocation } from '../../core';
import { navigationHandlers } from '../navigation-bridge';
import type { OracleClient } from '../oracle-client';
import { definitionsText, referencesText } from '../chat/chat-text';
import { ToolInputError, type HttpTool } from './mcp-http-server';
import { placeIn } from './tool-place';

const never = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

function place(args: Record<string, unknown>): Promise<NavLocation> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return placeIn(root?.scheme === 'file' ? root.fsPath : undefined, args);
}

const lines = (locs: NavLocation[]): string => (locs.length ? locs.map((l) => `${l.path}:${l.line}:${l.column}`).join('\n') : 'nothing found');

const name = (args: Record<string, unknown>): string => {
  if (typeof args.symbol !== 'string' || !args.symbol.trim()) throw new ToolInputError('symbol is required');
  return args.symbol.trim();
};

const placeSchema = {
  type: 'object' as const,
  properties: { path: { type: 'string', description: 'Workspace-relative path' }, line: { type: 'number', description: '1-based line' }, column: { type: 'number', description: '1-based column of the name' } },
  required: ['path', 'line'],
};
const symbolSchema = { type: 'object' as const, properties: { symbol: { type: 'string' }, limit: { type: 'number' } }, required: ['symbol'] };

export function editorTools(client: OracleClient): HttpTool[] {
  return [
    {
      name: 'definition_at', description: "Where the symbol at a place is defined, from the editor's language server (path:line:column per line).", inputSchema: placeSchema,
      run: async (a) => lines(await navigationHandlers['contextOracle/nav/definitions']({ at: await place(a) }, never)),
    },
    {
      name: 'references_at', description: "References to the symbol at a place, from the editor's language server (path:line:column per line).", inputSchema: placeSchema,
      run: async (a) => lines(await navigationHandlers['contextOracle/nav/references']({ at: await place(a) }, never)),
    },
    {
      name: 'find_definition', description: "Definitions of a symbol by name (exact from the editor's language servers when they know it, else the index).", inputSchema: symbolSchema,
      run: async (a) => definitionsText(await client.request('contextOracle/definitions', { symbol: name(a), limit: typeof a.limit === 'number' ? a.limit : 10 })),
    },
    {
      name: 'find_references', description: "References to a symbol by name (exact from the editor's language servers when they know it, else the index).", inputSchema: symbolSchema,
      run: async (a) => referencesText(await client.request('contextOracle/references', { symbol: name(a), limit: typeof a.limit === 'number' ? a.limit : 50 })),
    },
  ];
}
