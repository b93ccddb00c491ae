/**
 * JavaScript tiering for an index run. V8 optimises a function with TurboFan once it has run for an "interrupt
 * budget" of bytecode (132 KB by default in Node 20), on background threads and in every isolate on its own: an
 * index run has three (the main thread and two parse workers), and on hono (390 files) those compiles were ~0.9 of
 * its 4.5 CPU-s. A budget of 500 KB leaves the code that runs long (extraction, row writes) optimised and stops
 * compiling what runs briefly: hono 4.20 → 3.82 CPU-s, pydantic (572 files, 7.4 MB) 8.50 → 8.38 (medians of 3,
 * alternating, load 5–6). Process-wide, so only for commands that index (see cli/main.ts).
 */
import { setFlagsFromString } from 'node:v8';

export function optimiseLongRunningCodeOnly(): void {
  setFlagsFromString('--interrupt-budget=500000');
}
