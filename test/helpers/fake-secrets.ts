/**
 * Fake secrets of every shape the engine redacts, built at run time by concatenation so this repository never holds
 * a literal that a secret scanner would flag. None of them is a real credential.
 */

/** Deterministic "random-looking" characters: letters and digits, `n` of them. */
export function noise(n: number, seed = 7): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += chars[x % chars.length];
  }
  return out;
}
const upper = (n: number, seed?: number): string => noise(n * 3, seed).replace(/[a-z]/g, '').slice(0, n).padEnd(n, 'Q');

export const FAKE = {
  awsAccessKey: 'AK' + 'IA' + upper(16, 3),
  awsSessionKey: 'AS' + 'IA' + upper(16, 4),
  awsSecretKey: noise(38, 5) + '/+',
  gcpKey: 'AI' + 'za' + noise(35, 6),
  githubToken: 'gh' + 'p_' + noise(36, 8),
  githubPat: 'github' + '_pat_' + noise(22, 9) + '_' + noise(59, 10),
  gitlabToken: 'gl' + 'pat-' + noise(20, 11),
  slackToken: 'xo' + 'xb-' + '1234567890' + '-' + noise(24, 12),
  stripeKey: 'sk' + '_live_' + noise(24, 13),
  openaiKey: 'sk' + '-' + noise(48, 14),
  openaiProjectKey: 'sk' + '-proj-' + noise(40, 15),
  anthropicKey: 'sk' + '-ant-api03-' + noise(40, 16),
  jwt: 'ey' + 'J' + noise(20, 17) + '.' + 'ey' + 'J' + noise(30, 18) + '.' + noise(43, 19),
  dbPassword: 'Pw' + noise(14, 20),
  genericSecret: 'q9' + noise(22, 21),
};

export const PEM_BEGIN = '-----BEGIN ' + 'RSA PRIVATE' + ' KEY-----';
export const PEM_END = '-----END ' + 'RSA PRIVATE' + ' KEY-----';
/** Key material: a few 64-character base64 lines. */
export const PEM_LINES = [noise(64, 31), noise(64, 32), noise(64, 33), noise(40, 34) + '=='];
export const PEM_BLOCK = [PEM_BEGIN, ...PEM_LINES, PEM_END].join('\n');

/** A tracked source file of a workspace with a hardcoded AWS key pair and a private key (fixture for e2e tests). */
export function leakySource(): string {
  return [
    '/** Uploads invoices to the archive bucket. */',
    `export const ARCHIVE_ACCESS_KEY_ID = '${FAKE.awsAccessKey}';`,
    `export const ARCHIVE_SECRET = { aws_secret_access_key: '${FAKE.awsSecretKey}' };`,
    '',
    `export const ARCHIVE_SIGNING_KEY = \`${PEM_BLOCK}\`;`,
    '',
    '/** Uploads one invoice to the archive bucket with the archive credentials. */',
    'export function uploadInvoiceArchive(invoiceId: string): string {',
    '  return `s3://archive/${invoiceId}?key=${ARCHIVE_ACCESS_KEY_ID}`;',
    '}',
    '',
  ].join('\n');
}

/** Every secret value the leaky source holds (what must never appear in redacted output). */
export const LEAKED = [FAKE.awsAccessKey, FAKE.awsSecretKey, ...PEM_LINES];
