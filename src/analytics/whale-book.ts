/**
 * One API process's copy of every Smart Money wallet's positions (`is_smart = 1`, farmers included, as the
 * whale-match endpoints have always counted them), indexed by (market, side) and by whale, with the whales'
 * headline figures and the facts of every market: what whale-matches, missed-opportunities and
 * active-whale-markets read, so that a request reads only the asking wallet's own positions (one indexed read)
 * instead of every position in every market that wallet ever traded. Loaded at start, then reloaded in the
 * background once older than WHALE_BOOK_REFRESH_SECONDS or once the Deriver rewrote wallet_stats (the Smart Money
 * set may have changed), while the previous copy answers; `version` moves with each load, and keys the answers the
 * routes keep serialized.
 */
import type { Clock } from "../platform/clock.js";
import type { Store } from "../store/database.js";
import { STATS_GENERATION, readDeriveState } from "../store/derive-state.js";
import type { PositionsTable } from "../store/schema.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
import { KeptCopy } from "./kept-copy.js";
import { loadAllMarkets, outcomeSide, usd, type MarketInfo } from "./insight-support.js";
import { rankGroups, type WhaleGroup } from "./whale-groups.js";

const WALLETS_PER_QUERY = 4;

export const pairKey = (conditionId: string, outcomeIndex: number) => `${conditionId}/${outcomeIndex}`;

/** One whale position of the book. */
export interface BookPosition {
  wallet: string;
  /** The whale's number: its rank by address. */
  whale: number;
  condition_id: string;
  outcome_index: number;
  /** Micro-shares held. */
  shares: number;
  avg_price: number;
  /** Realized P&L net of fees, USD. */
  net_usd: number;
  /** Anything was bought on it (total_bought > 0): it counts for matches and missed opportunities. */
  bought: boolean;
  /** Open with shares held: it counts for active whale markets. */
  held: boolean;
}

export interface BookWhale {
  name: string | null;
  total_pnl: number;
  win_rate: number;
  profit_factor: number;
}

export interface WhaleBookView {
  /** Moves with each load. */
  readonly version: number;
  readonly whales: ReadonlyMap<string, BookWhale>;
  /** The whales' addresses by number (in address order). */
  readonly whaleAddresses: readonly string[];
  /** Bought whale positions per (market, side). */
  readonly boughtByPair: ReadonlyMap<string, readonly BookPosition[]>;
  /**
   * Per resolved market, the whales that bought its winning side with their net P&L on it, ranked by count and sum:
   * the missed opportunities' candidates.
   */
  readonly wonGroups: readonly WhaleGroup[];
  /**
   * Per open, unresolved (market, side), the whales that hold it with the cost of their shares, ranked by count
   * and sum: the active whale markets' candidates.
   */
  readonly activeGroups: readonly WhaleGroup[];
  readonly markets: ReadonlyMap<string, MarketInfo>;
  readonly generation: number;
  /** The clock when the copy was read. */
  readonly asOf: number;
}

type PositionRow = Pick<
  PositionsTable,
  | "wallet"
  | "condition_id"
  | "outcome_index"
  | "shares"
  | "avg_price"
  | "total_bought"
  | "realized_pnl"
  | "fees"
  | "status"
>;

async function loadBook(store: Store, now: number, version: number): Promise<WhaleBookView> {
  const generation = await readDeriveState(store.db, STATS_GENERATION);
  const whaleRows = await queryRows<{
    wallet: string;
    total_pnl: number;
    win_rate: number;
    profit_factor: number;
    name: string | null;
    pseudonym: string | null;
  }>(
    store.db,
    store.kind,
    "select s.wallet, s.total_pnl, s.win_rate, s.profit_factor, w.name, w.pseudonym from wallet_stats s left join wallets w on w.address = s.wallet where s.is_smart = 1",
  );
  const whales = new Map<string, BookWhale>();
  whaleRows.sort((a, b) => (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0));
  for (const r of whaleRows) {
    whales.set(r.wallet, {
      name: r.name || r.pseudonym || null,
      total_pnl: Number(r.total_pnl),
      win_rate: Number(r.win_rate),
      profit_factor: Number(r.profit_factor),
    });
  }
  const rows = await inSlices(
    [...whales.keys()],
    async (slice) => {
      const page = await queryRows<PositionRow>(
        store.db,
        store.kind,
        `select wallet, condition_id, outcome_index, shares, avg_price, total_bought, realized_pnl, fees, status from positions
          where wallet in ${placeholders(slice.length)} and (total_bought > 0 or (status = 'open' and shares > 0))`,
        slice,
      );
      await new Promise((resolve) => setImmediate(resolve));
      return page;
    },
    WALLETS_PER_QUERY,
  );
  const whaleAddresses = [...whales.keys()];
  const whaleNumber = new Map(whaleAddresses.map((w, i) => [w, i]));
  const boughtByPair = new Map<string, BookPosition[]>();
  const markets = await loadAllMarkets(store);
  type Member = { conditionId: string; outcomeIndex: number; whale: number; figure: number };
  const won = new Map<string, Member[]>();
  const active = new Map<string, Member[]>();
  const push = <T>(map: Map<string, T[]>, key: string, item: T) => {
    const list = map.get(key);
    if (list) list.push(item);
    else map.set(key, [item]);
  };
  for (const r of rows) {
    const shares = Number(r.shares);
    const p: BookPosition = {
      wallet: r.wallet,
      whale: whaleNumber.get(r.wallet)!,
      condition_id: r.condition_id,
      outcome_index: Number(r.outcome_index),
      shares,
      avg_price: Number(r.avg_price),
      net_usd: usd(Number(r.realized_pnl) - Number(r.fees)),
      bought: Number(r.total_bought) > 0,
      held: r.status === "open" && shares > 0,
    };
    const market = markets.get(p.condition_id);
    const key = pairKey(p.condition_id, p.outcome_index);
    const member = (figure: number) => ({
      conditionId: p.condition_id,
      outcomeIndex: p.outcome_index,
      whale: p.whale,
      figure,
    });
    if (p.bought) push(boughtByPair, key, p);
    if (p.bought && market?.resolution === outcomeSide(p.outcome_index)) push(won, key, member(p.net_usd));
    if (p.held && market !== undefined && !market.closed && market.resolution === null)
      push(active, key, member(usd(p.shares) * p.avg_price));
  }
  return {
    version,
    whales,
    whaleAddresses,
    boughtByPair,
    wonGroups: rankGroups(won),
    activeGroups: rankGroups(active),
    markets,
    generation,
    asOf: now,
  };
}

export class WhaleBook {
  private readonly copy: KeptCopy<WhaleBookView>;
  private loads = 0;
  /** The clock second the statistics generation was last looked at. */
  private checkedAt = -1;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly refreshSeconds: number,
  ) {
    this.copy = new KeptCopy(() => loadBook(store, clock.now(), ++this.loads));
  }

  /**
   * The copy, never older than the refresh window: a copy half that old is reloaded in the background while it
   * answers, so under steady traffic no request waits; a call that finds none, or one past the window (the process
   * was idle), or one of a store that had no Smart Money yet when a rewrite of the statistics has come since, waits
   * for the load. The statistics generation is looked at once a second; a move reloads the copy in the background.
   */
  async current(): Promise<WhaleBookView> {
    const view = this.copy.view;
    if (!view) return this.copy.reload();
    const now = this.clock.now();
    const age = now - view.asOf;
    if (age >= this.refreshSeconds || age < 0) return this.copy.reload();
    if (age >= this.refreshSeconds / 2) this.copy.reloadQuietly();
    else if (now !== this.checkedAt) {
      this.checkedAt = now;
      if ((await readDeriveState(this.store.db, STATS_GENERATION)) !== view.generation) {
        if (view.whales.size === 0) return this.copy.reload();
        this.copy.reloadQuietly();
      }
    }
    return view;
  }

  forget(): void {
    this.copy.forget();
  }
}
