/** A copy of the typed array `a` with room for `n` values, the new ones zero: how every growable column grows. */
export function widened<T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(a: T, n: number): T {
  const b = new (a.constructor as new (length: number) => T)(n);
  b.set(a);
  return b;
}

/** A growable column of 32-bit integers, for tables read row by row into typed arrays. */
export class IntColumn {
  values = new Int32Array(1 << 16);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) this.values = widened(this.values, this.values.length * 2);
    this.values[this.length++] = v;
  }
}
