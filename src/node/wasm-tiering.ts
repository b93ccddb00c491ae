/**
 * WebAssembly tiering for runs that may turn out short. V8 compiles wasm with its baseline compiler (Liftoff) and
 * compiles hot functions again with TurboFan on background threads. A no-change re-index runs sql.js for tens of
 * milliseconds, and the optimizing compiles it sets off cost more CPU than the run itself (hono, 390 files: 0.60 vs
 * 0.37 CPU-s with baseline code only); a full index runs tree-sitter and sql.js for seconds and needs the optimized
 * code (baseline only: 5.3 vs 5.8 CPU-s). So `index` starts on baseline code, and the parse workers, which exist only
 * when there is something to parse, turn optimizing back on before they start.
 */
import { setFlagsFromString } from 'node:v8';

export function wasmBaselineOnly(): void {
  setFlagsFromString('--liftoff-only');
}

/**
 * `--liftoff-only` also turns off tier-up and dynamic tiering (V8 flag implications, applied when it is set), and
 * `--no-liftoff-only` turns neither back on: they are set again here. With the first alone, a full index ran all of
 * tree-sitter on baseline code: hono, per-thread CPU (medians of 3): parse workers 2.82 → 2.29-2.52 CPU-s.
 */
export function wasmOptimizing(): void {
  setFlagsFromString('--no-liftoff-only');
  setFlagsFromString('--wasm-tier-up');
  setFlagsFromString('--wasm-dynamic-tiering');
}
