/**
 * The legs of the wash-trading test (docs/METRICS.md, the farmer test): a wallet's fills with each counterparty,
 * summed per (counterparty, token, side), and every wallet's legs summed in one pass over the stored fills. Light on
 * imports: the replay's read thread (replay-read-thread.ts) runs the pass while the replay works.
 */
import type SqliteDatabase from "better-sqlite3";
import type { LedgerConfig } from "../ledger/assess.js";
import { type CounterpartyFill, offsettingRing, washShare } from "../ledger/farmer.js";
import type { Direction } from "../ledger/types.js";
import { DictionaryTexts } from "../store/dictionaries.js";
import { fillCodeSql } from "../store/fill-codes.js";
import { FILL_DICTIONARIES, FILL_ROWS, fillCodeTextSql } from "../store/fill-layout.js";

/**
 * A wallet's fills with each counterparty, summed per (counterparty, token, side): what `washRing` adds up
 * anyway, so the legs summed while streaming and those summed by the store give the same share.
 */
export class WashLegs {
  private readonly legs = new Map<string, CounterpartyFill & { size: number; usd: number }>();

  add(counterparty: string | null, tokenId: string, side: Direction, size: number, usd: number): void {
    if (!counterparty) return;
    const key = `${counterparty}\n${tokenId}\n${side}`;
    const leg = this.legs.get(key);
    if (leg) {
      leg.size += size;
      leg.usd += usd;
    } else {
      this.legs.set(key, { counterparty, tokenId, side, size, usd });
    }
  }

  get empty(): boolean {
    return this.legs.size === 0;
  }

  /** The volume the wallet round-tripped with its ring (micro-units); null when no counterparty is known. */
  ringVolume(cfg: LedgerConfig["farmer"]): number | null {
    if (this.legs.size === 0) return null;
    // A fixed order, so that float sums do not depend on the order the legs were gathered in.
    const ordered = [...this.legs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, leg]) => leg);
    return offsettingRing(ordered, cfg).volume;
  }
}

/** The share of `volume` a ring's volume is (`WashLegs.ringVolume`; null stays null). */
export function ringShare(ringVolume: number | null, volume: number): number | null {
  return ringVolume === null ? null : washShare(ringVolume, volume);
}

/**
 * SQLite: every wallet's wash legs, a wallet at a time in the order of its id, from one scan of `fill_rows` in stored
 * order whose groups SQLite sorts once (with the sorter's threads), the ids turned into text from the dictionaries
 * read first (no other statement may run on the connection while this one iterates). The sums are those of
 * `washLegsSql`: the same groups of integer amounts.
 */
export function* everyWalletsWashLegs(handle: SqliteDatabase.Database): Generator<[string, WashLegs]> {
  const addresses = new DictionaryTexts(handle, FILL_DICTIONARIES.addresses);
  const tokens = new DictionaryTexts(handle, FILL_DICTIONARIES.tokens);
  const groups = handle
    .prepare(
      `select f.wallet_id, f.counterparty_id, f.token_ref, ${fillCodeTextSql("side")} as side, sum(f.size), sum(f.usd)
      from ${FILL_ROWS} f not indexed where f.counterparty_id is not null
      group by f.wallet_id, f.counterparty_id, f.token_ref, ${fillCodeSql("side")}
      order by f.wallet_id, f.counterparty_id, f.token_ref, ${fillCodeSql("side")}`,
    )
    .raw();
  let walletId: number | null = null;
  let legs = new WashLegs();
  for (const [wallet, counterparty, token, side, size, usd] of groups.iterate() as IterableIterator<
    [number, number, number, Direction, number, number]
  >) {
    if (wallet !== walletId) {
      if (walletId !== null) yield [addresses.text(walletId), legs];
      walletId = wallet;
      legs = new WashLegs();
    }
    legs.add(addresses.text(counterparty), tokens.text(token), side, Number(size), Number(usd));
  }
  if (walletId !== null) yield [addresses.text(walletId), legs];
}

/** Every wallet's ring volume (`WashLegs.ringVolume`) from one pass over the fills (`everyWalletsWashLegs`). */
export function everyWalletsRingVolumes(
  handle: SqliteDatabase.Database,
  cfg: LedgerConfig["farmer"],
): Map<string, number | null> {
  const volumes = new Map<string, number | null>();
  for (const [wallet, legs] of everyWalletsWashLegs(handle)) volumes.set(wallet, legs.ringVolume(cfg));
  return volumes;
}
