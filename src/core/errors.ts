/** Every error the engine raises on purpose. Hosts turn the code into a user-facing message or an exit code. */
export type EngineErrorCode =
  | 'required'
  | 'invalid_input'
  | 'not_found'
  | 'not_initialized'
  | 'index_corrupt'
  | 'index_locked'
  | 'grammar_unavailable'
  | 'outside_workspace'
  | 'cancelled'
  /** A user-configured remote endpoint (model, embeddings) failed or answered badly. */
  | 'upstream_failed'
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
