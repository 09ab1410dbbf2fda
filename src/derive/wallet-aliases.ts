/**
 * The ledger cannot forget a wallet, so a wallet derived again from the store lives on under an alias key
 * (`address#n`) and its old copy is ignored from then on: every row leaves the derivation under its address,
 * and only the live copy of each wallet is read.
 */
export class WalletAliases {
  private readonly aliasOf = new Map<string, string>();
  private readonly addressOf = new Map<string, string>();
  private count = 0;

  /** The key the ledger knows a wallet by. */
  keyOf(address: string): string {
    return this.aliasOf.get(address) ?? address;
  }

  /** The address behind a ledger key, or null for a superseded copy of a re-derived wallet. */
  liveAddress(key: string): string | null {
    const address = this.addressOf.get(key) ?? key;
    return this.keyOf(address) === key ? address : null;
  }

  /** A fresh key for the wallet, which supersedes its earlier ones. */
  renew(address: string): string {
    const alias = `${address}#${++this.count}`;
    this.aliasOf.set(address, alias);
    this.addressOf.set(alias, address);
    return alias;
  }

  /** Rows of live wallets only, under their addresses. */
  live<R extends { wallet: string }>(rows: Iterable<R>): R[] {
    return [...this.liveRows(rows)];
  }

  /** `live`, each row given as it is reached. */
  *liveRows<R extends { wallet: string }>(rows: Iterable<R>): Generator<R> {
    for (const row of rows) {
      const address = this.liveAddress(row.wallet);
      if (address === null) continue;
      yield address === row.wallet ? row : { ...row, wallet: address };
    }
  }
}
