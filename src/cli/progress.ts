import type { IndexProgress } from '../core';

/** A one-line progress bar on stderr, only when stderr is a terminal; silent otherwise. */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): { update(p: IndexProgress): void; end(): void } {
  if (!stream.isTTY) return { update() {}, end() {} };
  let last = 0;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 80 && p.phase === 'parsing' && p.done < p.total) return;
      last = now;
      const width = 30;
      const ratio = p.total ? p.done / p.total : 0;
      const bar = '█'.repeat(Math.round(ratio * width)).padEnd(width, '░');
      stream.write(`\r${p.phase.padEnd(10)} ${bar} ${p.done}/${p.total}   `);
    },
    end() {
      stream.write('\r\x1b[K');
    },
  };
}
