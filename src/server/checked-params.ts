/**
 * A request's params checked against its declared schema (src/protocol/request-schemas.ts) before its handler runs:
 * a missing or blank one is `required`, any other mismatch `invalid_input`, both naming the param.
 */
import type { z } from 'zod/v4';
import { EngineError } from '../core';
import type { OracleRequestMethod, OracleRequests } from '../protocol/language-server';
import { REQUEST_SCHEMAS } from '../protocol/request-schemas';

export function checkedParams<M extends OracleRequestMethod>(method: M, params: unknown): OracleRequests[M]['params'] {
  const schema = (REQUEST_SCHEMAS as Partial<Record<OracleRequestMethod, z.ZodType>>)[method];
  // Requests without params take none; whatever a client sends along is not read.
  if (!schema) return params as OracleRequests[M]['params'];
  const given = params ?? {};
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data as OracleRequests[M]['params'];
  const issue = parsed.error.issues[0]!;
  const name = issue.path.length ? String(issue.path[0]) : 'params';
  const value = issue.path.length && typeof given === 'object' ? (given as Record<string, unknown>)[name] : given;
  const missing = value === undefined || value === null || (typeof value === 'string' && !value.trim());
  throw new EngineError(missing ? 'required' : 'invalid_input', `${name} ${issue.message}`);
}
