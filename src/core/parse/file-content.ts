/**
 * How the index keeps a file's text: the decoded text as UTF-8, deflated (raw, no header). Code compresses about
 * 4:1, and chunk text is rebuilt from these lines (chunk-text.ts) instead of being stored once per chunk.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const encoder = new TextEncoder();
// The text was decoded once already; a leading U+FEFF left in it is content and must survive the round trip.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Compressed bytes of `text`, in an ArrayBuffer of their own (safe to transfer between threads). */
export function packContent(text: string): Uint8Array {
  const packed = deflateRawSync(encoder.encode(text));
  // zlib may hand back a slice of a shared pool; copy so the bytes own their buffer.
  return new Uint8Array(packed);
}

export function unpackContent(bytes: Uint8Array): string {
  return decoder.decode(inflateRawSync(bytes));
}
