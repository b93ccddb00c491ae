/** The second workspace folder's code: the multi-root tests ask about it from a window with two folders. */
// oracle:domain=ledger
export class Ledger {
  private readonly payments: number[] = [];

  record(amount: number): void {
    this.payments.push(amount);
  }

  /** The account balance: every recorded payment added up. */
  balance(): number {
    return this.payments.reduce((sum, p) => sum + p, 0);
  }
}

/** Settles an account: records each payment in order and returns the final balance. */
export function settleAccount(payments: number[]): number {
  const ledger = new Ledger();
  for (const p of payments) ledger.record(p);
  return ledger.balance();
}
