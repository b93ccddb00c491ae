/**
 * Answers the server's `contextOracle/nav/*` requests with the editor's own language servers: the engine's
 * NavigationProvider port, filled by the extension. Locations go back workspace-relative with 1-based lines and
 * columns; anything outside the workspace folders (libraries) is left out. With several folders open, paths are
 * VS Code's own `folderName/path` (as the server expects them, see src/server/workspace-folders.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeRegExp, type NavLocation, type NavSymbol } from '../core';
import type { ClientRequestHandlers } from './oracle-client';

const several = (): boolean => (vscode.workspace.workspaceFolders?.length ?? 0) > 1;

/** The folder a path names (`folderName/…` with several folders; the longest name wins) and the path inside it. */
export function folderOf(p: string): { folder: vscode.WorkspaceFolder; rel: string } | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!several()) return folders[0] ? { folder: folders[0], rel: p } : undefined;
  const named = folders.filter((f) => p.startsWith(`${f.name}/`)).sort((a, b) => b.name.length - a.name.length)[0];
  return named ? { folder: named, rel: p.slice(named.name.length + 1) } : undefined;
}

export function toUri(p: string): vscode.Uri | undefined {
  const at = folderOf(p);
  return at ? vscode.Uri.joinPath(at.folder.uri, ...at.rel.split('/')) : undefined;
}

/** The workspace folder of a file URI and its folder-relative POSIX path, or undefined outside every folder. */
export function folderRelative(uri: vscode.Uri): { folder: vscode.WorkspaceFolder; rel: string } | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || uri.scheme !== folder.uri.scheme) return undefined;
  const rel = path.relative(folder.uri.fsPath, uri.fsPath);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return { folder, rel: rel.split(path.sep).join('/') };
}

/** A file URI as the server names it: folder-relative, prefixed with the folder's name when several are open. */
export function relativePath(uri: vscode.Uri): string | undefined {
  const at = folderRelative(uri);
  return at ? (several() ? `${at.folder.name}/${at.rel}` : at.rel) : undefined;
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
    const m = new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`).exec(text);
    if (!m) return loc.range;
    return new vscode.Range(doc.positionAt(start + m.index), doc.positionAt(start + m.index + name.length));
  } catch {
    return loc.range;
  }
}
