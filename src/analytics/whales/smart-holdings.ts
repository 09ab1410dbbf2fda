/**
 * One API process's copy of the smart whales' open positions, per wallet and market: what big positions, conviction
 * clusters and whale flips read. Loaded once (the first request waits), then reloaded in the background once older
 * than WHALE_HOLDINGS_REFRESH_SECONDS while the previous copy answers; a load reads the positions of 200 whales per
 * query with the event loop free in between, so a large store never holds the loop for the whole read.
 */
import type { Store } from "../../store/database.js";
import { POSITION_STATUS_CODE, positionsWithStatusCodeSql } from "../../store/position-status.js";
import { inSlices, placeholders, queryRows } from "../../store/raw-sql.js";
import { ReloadedCopy } from "../../kept/reloaded-copy.js";
import { loadRoster, type Roster, type RosterCopyDeps } from "./smart-roster.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";

const WALLETS_PER_QUERY = 200;

/** One side of a whale's position in a market. */
export interface SideHolding {
  /** Shares, in micro-units as stored. */
  shares: number;
  avgPrice: number;
  /** shares × average price, USD. */
  costUsd: number;
}

export interface WhaleHolding {
  wallet: string;
  condition_id: string;
  yes: SideHolding | null;
  no: SideHolding | null;
  /** YES cost minus NO cost, USD: the net position consensus, flips and clusters read. */
  netUsd: number;
  /** The side with the larger cost (YES on a tie): the position a big-positions row shows. */
  larger: "YES" | "NO";
  largerCostUsd: number;
}

export interface HoldingsView {
  /** Largest `largerCostUsd` first, then by wallet and market. */
  readonly holdings: readonly WhaleHolding[];
  readonly roster: Roster;
  /** The clock when the copy was read. */
  readonly asOf: number;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function loadHoldings(store: Store, roster: Roster, now: number): Promise<HoldingsView> {
  const rows = await inSlices(
    [...roster.whales.keys()],
    async (slice) => {
      const page = await queryRows<{
        wallet: string;
        condition_id: string;
        outcome_index: number;
        shares: number;
        avg_price: number;
      }>(
        store.db,
        store.kind,
        `select wallet, condition_id, outcome_index, shares, avg_price from ${positionsWithStatusCodeSql(store.kind)} p
          where wallet in ${placeholders(slice.length)} and status_code = ${POSITION_STATUS_CODE.open} and shares > 0`,
        slice,
      );
      await yieldToLoop();
      return page;
    },
    WALLETS_PER_QUERY,
  );
  const byKey = new Map<string, WhaleHolding>();
  for (const r of rows) {
    const key = `${r.wallet}:${r.condition_id}`;
    let h = byKey.get(key);
    if (!h)
      byKey.set(
        key,
        (h = {
          wallet: r.wallet,
          condition_id: r.condition_id,
          yes: null,
          no: null,
          netUsd: 0,
          larger: "YES",
          largerCostUsd: 0,
        }),
      );
    const shares = Number(r.shares);
    const avgPrice = Number(r.avg_price);
    const side = { shares, avgPrice, costUsd: (shares * avgPrice) / 1e6 };
    if (Number(r.outcome_index) === 0) h.yes = side;
    else h.no = side;
  }
  const holdings = [...byKey.values()];
  for (const h of holdings) {
    const yes = h.yes?.costUsd ?? 0;
    const no = h.no?.costUsd ?? 0;
    h.netUsd = yes - no;
    h.larger = no > yes ? "NO" : "YES";
    h.largerCostUsd = Math.max(yes, no);
  }
  holdings.sort(
    (a, b) =>
      b.largerCostUsd - a.largerCostUsd ||
      compareText(a.wallet, b.wallet) ||
      compareText(a.condition_id, b.condition_id),
  );
  return { holdings, roster, asOf: now };
}

/** The smart whales' open positions read afresh, with the roster (what the window aggregates read: no copy kept). */
export async function loadHoldingsView(store: Store, now: number): Promise<HoldingsView> {
  return loadHoldings(store, await loadRoster(store), now);
}

export class SmartHoldings {
  private readonly copy: ReloadedCopy<HoldingsView>;

  constructor(
    private readonly deps: RosterCopyDeps,
    private readonly refreshSeconds: number,
  ) {
    this.copy = new ReloadedCopy(
      "whale holdings",
      async () => {
        const now = deps.clock.now();
        return loadHoldings(deps.store, await deps.roster.latest(), now);
      },
      deps.background,
    );
  }

  /** The copy; the first call waits for it, a stale one is reloaded in the background. */
  async current(): Promise<HoldingsView> {
    const view = this.copy.view;
    if (!view) return this.copy.reload();
    const now = this.deps.clock.now();
    if (!this.copy.loading && (now - view.asOf >= this.refreshSeconds || now < view.asOf)) this.copy.reloadQuietly();
    return view;
  }

  forget(): void {
    this.copy.forget();
  }
}
