/**
 * In an MCP stdio server stdout carries only JSON-RPC. Anything else printing there (a dependency's console.log,
 * emscripten's default print, a worker thread's stdout, which Node pipes into the parent's) would corrupt the
 * stream. So the protocol gets a private writer on fd 1 and every other write to process.stdout goes to stderr.
 */
import { Writable } from 'node:stream';

export interface StdoutGuard {
  /** The only writer of protocol messages. */
  protocol: Writable;
  /** Puts process.stdout back as it was. */
  restore(): void;
}

export function guardStdout(): StdoutGuard {
  const stdout = process.stdout;
  const original = stdout.write;
  const writeProtocol = original.bind(stdout) as (chunk: Uint8Array | string, cb: (err?: Error | null) => void) => boolean;
  const protocol = new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      writeProtocol(chunk, (err) => callback(err ?? null));
    },
  });
  const toStderr = ((chunk: Uint8Array | string, encoding?: BufferEncoding | ((err?: Error | null) => void), cb?: (err?: Error | null) => void) =>
    typeof encoding === 'function' ? process.stderr.write(chunk, encoding) : process.stderr.write(chunk, encoding, cb)) as typeof stdout.write;
  stdout.write = toStderr;
  return {
    protocol,
    restore() {
      stdout.write = original;
    },
  };
}
