import type { OracleErrorData } from '../protocol/language-server';

/** The engine's error code carried in a ResponseError's data (see src/server/response-errors.ts), if any. */
export function engineErrorCode(error: unknown): OracleErrorData['code'] | undefined {
  const data = (error as { data?: Partial<OracleErrorData> } | undefined)?.data;
  return typeof data?.code === 'string' ? data.code : undefined;
}

export function isCancellation(error: unknown): boolean {
  return engineErrorCode(error) === 'cancelled' || (error as { code?: number } | undefined)?.code === -32800;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
