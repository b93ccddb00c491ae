import { type EngineConfig, validateModel } from '../core';
import type { EditorModelConfig, ServerSettings } from '../protocol/language-server';

/** Only well-formed values reach the engine; anything else falls back to the engine's default. */
export function sanitizeSettings(raw: unknown): ServerSettings {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: ServerSettings = {};
  if (Array.isArray(s.exclude)) out.exclude = s.exclude.filter((p): p is string => typeof p === 'string' && p.length > 0);
  if (typeof s.maxFileBytes === 'number' && Number.isFinite(s.maxFileBytes) && s.maxFileBytes > 0) out.maxFileBytes = s.maxFileBytes;
  if (typeof s.indexMemoryMb === 'number' && Number.isFinite(s.indexMemoryMb) && s.indexMemoryMb >= 0) out.indexMemoryMb = s.indexMemoryMb;
  if (typeof s.respectGitignore === 'boolean') out.respectGitignore = s.respectGitignore;
  if (typeof s.indexPath === 'string' && s.indexPath.trim()) out.indexPath = s.indexPath.trim();
  if (typeof s.useEditorNavigation === 'boolean') out.useEditorNavigation = s.useEditorNavigation;
  if (typeof s.redactSecrets === 'boolean') out.redactSecrets = s.redactSecrets;
  if (s.sessionLogs === 'workspace' || s.sessionLogs === 'cache') out.sessionLogs = s.sessionLogs;
  return out;
}

export function toEngineConfig(settings: ServerSettings): Partial<EngineConfig> {
  const config: Partial<EngineConfig> = {};
  if (settings.exclude) config.exclude = settings.exclude;
  if (settings.maxFileBytes !== undefined) config.maxFileBytes = settings.maxFileBytes;
  if (settings.indexMemoryMb !== undefined) config.indexMemoryMb = settings.indexMemoryMb;
  if (settings.respectGitignore !== undefined) config.respectGitignore = settings.respectGitignore;
  if (settings.redactSecrets !== undefined) config.redactSecrets = settings.redactSecrets;
  if (settings.sessionLogs !== undefined) config.sessionLogs = settings.sessionLogs;
  return config;
}

export function sameSettings(a: ServerSettings, b: ServerSettings): boolean {
  const norm = (s: ServerSettings) => JSON.stringify([s.exclude ?? [], s.maxFileBytes ?? null, s.indexMemoryMb ?? null, s.respectGitignore ?? null, s.indexPath ?? '', s.useEditorNavigation ?? true, s.redactSecrets ?? true, s.sessionLogs ?? 'cache']);
  return norm(a) === norm(b);
}

/** The editor's model configuration, checked again; a malformed model is dropped (`problem` says why). */
export function sanitizeModelConfig(raw: unknown): { config: EditorModelConfig; problem?: string } {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const config: EditorModelConfig = {};
  let problem: string | undefined;
  if (o.model !== undefined && o.model !== null) {
    try {
      config.model = validateModel(o.model);
    } catch (e) {
      problem = `contextOracle.model settings ignored: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  if (typeof o.approvedWorkspaceModel === 'string' && o.approvedWorkspaceModel) config.approvedWorkspaceModel = o.approvedWorkspaceModel;
  if (typeof o.editorModel === 'string' && o.editorModel.trim()) config.editorModel = o.editorModel.trim();
  return { config, ...(problem ? { problem } : {}) };
}
