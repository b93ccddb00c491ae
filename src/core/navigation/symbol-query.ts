/** What the user typed as SYMBOL: a plain name, `Container.name`, `pkg.module.name`, `crate::mod::Name`, `Class#method`. */
import { EngineError } from '../errors';

export interface SymbolQuery {
  raw: string;
  /** The last segment: the name every candidate must have. */
  name: string;
  /** Leading segments, outermost first: containers and/or module path parts. */
  qualifiers: string[];
}

// `Class#method` separates with '#', but `#name` alone is a JavaScript private name.
const SEPARATORS = /::|->|[./\\]|(?<=[\p{L}\p{N}_$])#/u;
const IDENT = /^#?[\p{L}_$][\p{L}\p{N}_$]*[!?]?$/u;

export function parseSymbolQuery(raw: string): SymbolQuery {
  const text = raw.trim().replace(/\(\)$/, '');
  if (!text) throw new EngineError('required', 'a symbol name is required');
  const parts = text.split(SEPARATORS).map((p) => p.trim()).filter((p) => p.length > 0);
  const name = parts.pop();
  if (!name || !IDENT.test(name)) {
    throw new EngineError('invalid_input', `"${raw}" is not a symbol name (expected e.g. listen, Server.listen or auth.service.login)`);
  }
  return { raw: text, name, qualifiers: parts };
}
