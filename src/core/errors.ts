/** Every error the engine raises on purpose. Hosts turn the code into a user-facing message or an exit code. */
export type EngineErrorCode =
  | 'required'
  | 'invalid_input'
  | 'not_found'
  | 'not_initialized'
  | 'index_corrupt'
  | 'index_locked'
  /** An index file written by another schema, engine or grammar version (a shared index to import or open). */
  | 'index_incompatible'
  | 'grammar_unavailable'
  | 'outside_workspace'
  | 'cancelled'
  /** A user-configured remote endpoint (model, embeddings) failed or answered badly. */
  | 'upstream_failed'
  /** Writing the index failed: the disk (or quota) is full. The index on disk is left as it was. */
  | 'no_space'
  /** Writing the index failed: the folder or file is not writable (EACCES, EPERM, a read-only file system). */
  | 'permission_denied'
  /** Writing the index failed for another system reason (a path that is not a folder, an I/O error, …). */
  | 'write_failed'
  | 'internal';

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** Extra, serialisable detail (suggestions for not_found, the file for invalid_input, …). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }

  static is(value: unknown, code?: EngineErrorCode): value is EngineError {
    return value instanceof EngineError && (code === undefined || value.code === code);
  }

  toJSON(): { code: EngineErrorCode; message: string; detail?: Record<string, unknown> } {
    return { code: this.code, message: this.message, ...(this.detail ? { detail: this.detail } : {}) };
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError('cancelled', 'operation cancelled');
}

/**
 * A failed write to the index (an error with a system `code` such as ENOSPC) at `path`, as the EngineError that
 * says what happened and where. Anything else, an EngineError included, comes back unchanged.
 */
export function writeFailure(e: unknown, path: string): unknown {
  if (EngineError.is(e) || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return e;
  const where = path;
  const detail = { path: where, cause: code };
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new EngineError('no_space', `no space left on device while writing ${where}`, detail);
    case 'EACCES':
    case 'EPERM':
      return new EngineError('permission_denied', `permission denied writing ${where}`, detail);
    case 'EROFS':
      return new EngineError('permission_denied', `permission denied writing ${where} (read-only file system)`, detail);
    case 'ENOTDIR':
    case 'EEXIST':
      // Only writes that make folders get here with these (mkdir over a file, or under one).
      return new EngineError('write_failed', `cannot write ${where}: a file stands where a folder is needed (${code})`, detail);
    default:
      return new EngineError('write_failed', `cannot write ${where}: ${e.message}`, detail);
  }
}
