/**
 * Answers the server's `contextOracle/nav/*` requests with the editor's own language servers: the engine's
 * NavigationProvider port, filled by the extension. Locations go back workspace-relative with 1-based lines and
 * columns; anything outside the first workspace folder (libraries, other roots) is left out.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { NavLocation, NavSymbol } from '../core';
import type { ClientRequestHandlers } from './oracle-client';

function root(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

export function toUri(rel: string): vscode.Uri | undefined {
  const r = root();
  return r ? vscode.Uri.joinPath(r, ...rel.split('/')) : undefined;
}

/** Workspace-relative POSIX path of a file URI, or undefined when it is outside the workspace. */
export function relativePath(uri: vscode.Uri): string | undefined {
  const r = root();
  if (!r || uri.scheme !== r.scheme) return undefined;
  const rel = path.relative(r.fsPath, uri.fsPath);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

export function toNavLocation(uri: vscode.Uri, range: vscode.Range): NavLocation | undefined {
  const p = relativePath(uri);
  if (!p) return undefined;
  return { path: p, line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

/** Location | LocationLink (definition providers return either); a link's target selection is the name. */
export function fromLocations(found: ReadonlyArray<vscode.Location | vscode.LocationLink> | undefined): NavLocation[] {
  const out: NavLocation[] = [];
  for (const l of found ?? []) {
    const loc = 'targetUri' in l ? toNavLocation(l.targetUri, l.targetSelectionRange ?? l.targetRange) : toNavLocation(l.uri, l.range);
    if (loc) out.push(loc);
  }
  return out;
}

function position(at: NavLocation): vscode.Position {
  return new vscode.Position(Math.max(0, at.line - 1), Math.max(0, at.column - 1));
}

async function atLocation(command: string, at: NavLocation): Promise<NavLocation[]> {
  const uri = toUri(at.path);
  if (!uri) return [];
  const found = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(command, uri, position(at));
  return fromLocations(found);
}

const SYMBOL_KINDS = Object.fromEntries(Object.entries(vscode.SymbolKind).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v, k.toLowerCase()]));

export const navigationHandlers: Omit<ClientRequestHandlers, 'contextOracle/lm/chat'> = {
  'contextOracle/nav/definitions': ({ at }) => atLocation('vscode.executeDefinitionProvider', at),
  'contextOracle/nav/references': ({ at }) => atLocation('vscode.executeReferenceProvider', at),
  'contextOracle/nav/implementations': ({ at }) => atLocation('vscode.executeImplementationProvider', at),
  'contextOracle/nav/workspaceSymbols': async ({ query }) => {
    const found = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
    const out: NavSymbol[] = [];
    for (const s of found ?? []) {
      // The TypeScript extension names functions `makeGreeter()`: the engine matches bare names.
      const name = s.name.replace(/\s*\(.*\)$/, '');
      const range = name.toLowerCase() === query.toLowerCase() ? await nameRange(s.location, name) : s.location.range;
      const location = toNavLocation(s.location.uri, range);
      if (location) out.push({ name, kind: SYMBOL_KINDS[s.kind] ?? 'other', ...(s.containerName ? { container: s.containerName } : {}), location });
    }
    return out;
  },
};

/**
 * Providers give a symbol's whole declaration (`export function f…` from column 1); the port promises where its name
 * is, which is what references and the index are keyed on. Searched within the declaration's lines.
 */
async function nameRange(loc: vscode.Location, name: string): Promise<vscode.Range> {
  try {
    const doc = await vscode.workspace.openTextDocument(loc.uri);
    const start = doc.offsetAt(loc.range.start);
    const text = doc.getText(loc.range);
    const m = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).exec(text);
    if (!m) return loc.range;
    return new vscode.Range(doc.positionAt(start + m.index), doc.positionAt(start + m.index + name.length));
  } catch {
    return loc.range;
  }
}
