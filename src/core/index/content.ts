/** Deciding whether bytes are text we can index, and decoding them. */
import { createHash } from 'node:crypto';

const SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Minified or generated single-line code: a large file whose lines average hundreds of characters. */
export function looksMinified(text: string): boolean {
  if (text.length < 10_000) return false;
  return text.length / lineCount(text) > 400;
}

export function lineCount(text: string): number {
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** Decodes UTF-8; invalid sequences become U+FFFD and are reported, so one stray Latin-1 byte loses nothing else. */
export function decodeText(bytes: Uint8Array): { text: string; lossy: boolean } {
  try {
    return { text: strict.decode(bytes), lossy: false };
  } catch {
    return { text: lenient.decode(bytes), lossy: true };
  }
}

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}
