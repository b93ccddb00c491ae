/** A tiny class the integration tests expect to find in the index. */
// oracle:domain=greeting
export class Greeter {
  constructor(private readonly salutation: string) {}

  greet(name: string): string {
    return `${this.salutation}, ${name}!`;
  }
}

export function makeGreeter(salutation = 'Hello'): Greeter {
  return new Greeter(salutation);
}
