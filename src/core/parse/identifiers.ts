/**
 * Identifier-aware tokens for full-text search: `getUserName` and `get_user_name` both become
 * `get user name`, and the whole identifier is kept too so exact names still match.
 */
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

export function splitIdentifier(identifier: string): string[] {
  const parts = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p.length > 0)
    .map((p) => p.toLowerCase());
  return parts;
}

/** Text rewritten for the FTS tokenizer: each identifier followed by its parts when it has more than one. */
export function searchableText(text: string): string {
  return text.replace(IDENT, (id) => {
    const parts = splitIdentifier(id);
    const whole = id.replace(/\$/g, '').toLowerCase();
    return parts.length > 1 ? `${whole} ${parts.join(' ')}` : whole;
  });
}
