/** A growable column of 32-bit integers, for tables read row by row into typed arrays. */
export class IntColumn {
  values = new Int32Array(1 << 16);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = v;
  }
}
