import { ResponseError } from 'vscode-languageserver/node';
import { EngineError } from '../core';
import { ENGINE_ERROR_RPC_CODES, type OracleErrorData } from '../protocol/language-server';

/** Every failure a request handler can raise becomes a ResponseError whose `data.code` is the engine's error code. */
export function toResponseError(error: unknown): ResponseError<OracleErrorData> {
  if (error instanceof ResponseError) return error as ResponseError<OracleErrorData>;
  if (EngineError.is(error)) {
    return new ResponseError(ENGINE_ERROR_RPC_CODES[error.code], error.message, {
      code: error.code,
      ...(error.detail ? { detail: error.detail } : {}),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(ENGINE_ERROR_RPC_CODES.internal, message, { code: 'internal' });
}
