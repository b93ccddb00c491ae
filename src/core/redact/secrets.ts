/**
 * Well-known secret shapes in text, replaced by a readable stand-in (`AKIA…[redacted aws-access-key]`) before the text
 * leaves the engine. A replacement never adds or removes a line: a private key block is redacted line for line, so
 * file:line citations stay right.
 *
 * Every pattern runs in linear time: bounded repetition only, no nested quantifiers, and a match may only start at a
 * fixed literal (`://`, a secret-like name) or where a run of the token's own characters starts (a lookbehind), and
 * the run it then scans cannot hold another costly start; no stretch of text is rescanned from every position in it.
 * test/unit/redact.test.ts times a 1 MB hostile input.
 */

export interface Redacted {
  text: string;
  /** The secrets replaced, as they were (a private key block is one); for counting distinct secrets, never shown. */
  found: string[];
}

interface Rule {
  pattern: RegExp;
  /** The stand-in for a match, or undefined to keep the match (a placeholder, a look-alike). */
  replace(match: string, groups: (string | undefined)[]): string | undefined;
}

const tag = (kind: string): string => `…[redacted ${kind}]`;
/** A token keeps its well-known prefix, so a reader still sees what kind of credential was there. */
const token = (kind: string) => (_m: string, g: (string | undefined)[]): string => `${g[0]}${tag(kind)}`;
const hasLetterAndDigit = (s: string): boolean => /[A-Za-z]/.test(s) && /[0-9]/.test(s);

/** Values that only hold the place of a secret: documentation, templates, environment references. */
const PLACEHOLDER_WORDS = /changeme|change_me|example|placeholder|dummy|sample|your[_-]|redacted|replace|insert|todo|xxxx|\*\*\*|\.\.\./i;
function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_WORDS.test(value) || /^\$\{|^\$\(|^\{\{|^<[^>]*>$|^%[sd(]|^\$[A-Z_]/.test(value) || /^(.)\1*$/.test(value) || value.includes('[redacted');
}

/** A quoted literal worth redacting after a secret-like name: long enough, not a placeholder, not a plain word. */
function looksRandom(value: string): boolean {
  if (value.length < 8 || isPlaceholder(value)) return false;
  if (value.includes('://') || /^\.{0,2}\//.test(value)) return false; // a URL or a path, not the secret itself
  if (isWords(value)) return false;
  // Letters with digits or with symbols that do not separate words; letters alone are a name or a phrase.
  return /[A-Za-z]/.test(value) && /[0-9!@#$%^&*+=?~|]/.test(value);
}

// Two letters make a word only when they are a common one: random text is full of two-letter pieces ("Kx7Lm3").
const SHORT_WORD = /^(?:to|by|up|in|on|of|at|is|id|or|as|if|no|ok|my|we)$/i;

/**
 * Names rather than secrets: words in camelCase, PascalCase, snake_case, CONSTANT_CASE or dotted/colon-separated,
 * each with at most a short version number ("msal:acquireTokenStart", "FlowPasswordRequiredResultV2", "SESSION_TOKEN_V2").
 */
function isWords(value: string): boolean {
  return value.split(/[_.:/-]|(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])/)
    .every((w) => w === '' || SHORT_WORD.test(w) || /^[A-Za-z][a-z]{2,40}[0-9]{0,3}$|^[A-Z]{1,40}[0-9]{0,3}$|^[0-9]{1,3}$/.test(w));
}

const RULES: readonly Rule[] = [
  // Vendor tokens: fixed prefixes, so false positives are rare. Anthropic before OpenAI (both start with sk-).
  { pattern: /(?<![\w-])(sk-ant-)[\w-]{20,400}/g, replace: token('anthropic-key') },
  { pattern: /(?<![\w-])(sk-(?:proj|svcacct|admin)-)[\w-]{20,400}/g, replace: token('openai-key') },
  { pattern: /(?<![\w-])(sk-)[A-Za-z0-9]{32,400}/g, replace: (m, g) => (hasLetterAndDigit(m.slice(3)) ? `${g[0]}${tag('openai-key')}` : undefined) },
  { pattern: /(?<![\w-])([sr]k_live_)[A-Za-z0-9]{16,400}/g, replace: token('stripe-key') },
  { pattern: /(?<![\w-])(gh[pousr]_)[A-Za-z0-9]{36,255}/g, replace: token('github-token') },
  { pattern: /(?<![\w-])(github_pat_)\w{22,255}/g, replace: token('github-token') },
  { pattern: /(?<![\w-])(glpat-)[\w-]{20,64}/g, replace: token('gitlab-token') },
  { pattern: /(?<![\w-])(xox[abprs]-)[A-Za-z0-9-]{10,250}/g, replace: token('slack-token') },
  { pattern: /(?<![\w-])(AIza)[\w-]{35}(?![\w-])/g, replace: token('gcp-api-key') },
  // AWS documents its example key ids with an EXAMPLE suffix: those are not secrets.
  { pattern: /(?<![A-Za-z0-9])(AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, replace: (m, g) => (m.endsWith('EXAMPLE') ? undefined : `${g[0]}${tag('aws-access-key')}`) },
  // An AWS secret key is 40 characters of base64 with no prefix: only after a name that says what it is.
  {
    pattern: /(?<![A-Za-z0-9_])((?:aws[_-]?)?secret[_-]?access[_-]?key|aws[_-]?secret(?:[_-]?key)?)(["'`]?\s{0,3}(?:=>|:=|=|:)\s{0,3}["'`]?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (_m, g) => (isPlaceholder(g[2]!) ? undefined : `${g[0]}${g[1]}${tag('aws-secret-key')}`),
  },
  { pattern: /(?<![\w-])(eyJ)[\w-]{5,2000}\.eyJ[\w-]{5,4000}\.[\w-]{0,2000}/g, replace: token('jwt') },
  // scheme://user:password@host keeps the scheme, the user and the host (found from the `://`, not every word).
  {
    pattern: /(:\/\/[^\s:@/"'`]{0,100}:)([^\s@/"'`]{1,200})@/g,
    // Documentation writes `user:pass@` or `abc:xyz@`: a word for a password, or one too short to be one, is kept.
    replace: (_m, g) => (g[1]!.length < 4 || isPlaceholder(g[1]!) || /^(?:password|passwd|pass|pwd|secret)$/i.test(g[1]!) ? undefined : `${g[0]}${tag('password')}@`),
  },
  // password|secret|token|api_key = "random-looking literal": the name and the quotes stay.
  {
    pattern: /((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[\w.-]{0,30}?["'`]?\s{0,3}(?:=>|:=|=|:)\s{0,3}(["'`]))([^"'`\s\\]{8,200})\2/gi,
    replace: (_m, g) => (looksRandom(g[2]!) ? `${g[0]}${tag('secret')}${g[1]}` : undefined),
  },
];

const PEM_MARKER = /-----(BEGIN|END) [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Key material inside a block; `\n`-style escapes (a key written on one line of a string literal) are kept. */
const PEM_BODY = /(\\[nrt])|[A-Za-z0-9+/]{2,}={0,2}/g;
/** A long run of key material: all that is redacted on the marker's own line when the block is cut off. */
const PEM_RUN = /[A-Za-z0-9+/]{8,}={0,2}/g;
/** A line of key material by itself, quotes, indentation and string concatenation aside. */
const PEM_LINE = /^[\s"'`]{0,40}[A-Za-z0-9+/]{16,}={0,2}(?:\\n)?["'`]?\s{0,3}[+,;]?\s{0,3}$/;

/** What identifies a block among the secrets found: its first run of key material (a cut-off copy has it too). */
const keyId = (material: string): string => /[A-Za-z0-9+/]{8,}/.exec(material)?.[0] ?? material;

function redactBody(body: string): string {
  return body.replace(PEM_BODY, (m, escape: string | undefined) => escape ?? tag('private-key'));
}

/** Lines of key material next to an unpaired marker (a snippet cut inside a block), walking `step` lines away. */
function redactLinesNear(text: string, from: number, step: 1 | -1): { text: string; redacted?: string } {
  const lines = step === 1 ? text.slice(from).split('\n') : text.slice(0, from).split('\n');
  // Going forward the first piece is the rest of the marker's line; going back the last piece is the start of it.
  const own = step === 1 ? 0 : lines.length - 1;
  const key: string[] = [];
  lines[own] = lines[own]!.replace(PEM_RUN, (m) => {
    key.push(m);
    return tag('private-key');
  });
  for (let i = step === 1 ? 1 : lines.length - 2; i >= 0 && i < lines.length; i += step) {
    if (!PEM_LINE.test(lines[i]!)) break;
    key.push(lines[i]!);
    lines[i] = redactBody(lines[i]!);
  }
  const joined = lines.join('\n');
  return { text: step === 1 ? text.slice(0, from) + joined : joined + text.slice(from), ...(key.length ? { redacted: keyId(key.join('\n')) } : {}) };
}

/** Private key blocks, BEGIN through END; a block cut off at either end still loses the key lines it has. */
function redactPem(text: string): Redacted {
  if (!text.includes('PRIVATE KEY')) return { text, found: [] };
  const markers = [...text.matchAll(PEM_MARKER)];
  if (!markers.length) return { text, found: [] };
  const out: string[] = [];
  const found: string[] = [];
  let at = 0;
  let open: number | undefined;
  /** A BEGIN with no END before the next marker: the key lines right after it (a snippet may end inside a block). */
  const cutAfterBegin = (until: number): void => {
    const rest = redactLinesNear(text.slice(at, until), open! - at, 1);
    out.push(rest.text);
    if (rest.redacted) found.push(rest.redacted);
    at = until;
  };
  for (const m of markers) {
    const start = m.index, end = m.index + m[0].length;
    if (m[1] === 'BEGIN') {
      // A block never holds another BEGIN: one before it was cut off (a signature line, a truncated excerpt).
      if (open !== undefined) cutAfterBegin(start);
      open = end;
      continue;
    }
    if (open !== undefined) {
      out.push(text.slice(at, open), redactBody(text.slice(open, start)), m[0]);
      found.push(keyId(text.slice(open, start)));
    } else {
      const back = redactLinesNear(text.slice(at, start), start - at, -1);
      out.push(back.text, m[0]);
      if (back.redacted) found.push(back.redacted);
    }
    at = end;
    open = undefined;
  }
  if (open !== undefined) cutAfterBegin(text.length);
  else out.push(text.slice(at));
  return { text: out.join(''), found };
}

/** Something every rule needs to match; most texts (paths, names, plain code) have none and take one scan. */
const MAY_HOLD = /AKIA|ASIA|AIza|gh[pousr]_|github_pat_|glpat-|xox[abprs]-|k_live_|sk-|eyJ|:\/\/|PRIVATE KEY|passw|pwd|secret|token|api[_-]?key|access[_-]?key/i;

/** `text` with every well-known secret shape replaced; line count and everything else unchanged. */
export function redactSecrets(text: string): Redacted {
  if (text.length < 8 || !MAY_HOLD.test(text)) return { text, found: [] };
  let { text: out, found } = redactPem(text);
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, rest.findIndex((r) => typeof r === 'number')) as (string | undefined)[];
      const replaced = rule.replace(match, groups);
      if (replaced === undefined) return match;
      found.push(match);
      return replaced;
    });
  }
  return { text: out, found };
}
