import * as vscode from 'vscode';
import type { ServerSettings } from '../protocol/language-server';

/** The `contextOracle.*` settings the server needs (the server validates them again). */
export function readServerSettings(scope?: vscode.ConfigurationScope): ServerSettings {
  const c = vscode.workspace.getConfiguration('contextOracle', scope);
  return {
    exclude: c.get<string[]>('exclude', []),
    maxFileBytes: c.get<number>('maxFileBytes', 1024 * 1024),
    indexMemoryMb: c.get<number>('indexMemoryMb', 1024),
    respectGitignore: c.get<boolean>('respectGitignore', true),
    indexPath: c.get<string>('indexPath', ''),
    useEditorNavigation: c.get<boolean>('useEditorNavigation', true),
    redactSecrets: c.get<boolean>('redactSecrets', true),
    sessionLogs: c.get<string>('sessionLogs', 'cache') === 'workspace' ? 'workspace' : 'cache',
  };
}
