/**
 * Top movers (/api/analytics/top-movers): the wallets (never farmers) whose ledger P&L rose most over the last
 * TOP_MOVERS_DAYS, from the daily P&L points, with the daily curve as a sparkline.
 */
import type { Store } from "../../store/database.js";
import { seriesOfWallets } from "../../store/pnl-series.js";
import { loadNames } from "../wallet/display-names.js";
import { SECONDS_PER_DAY } from "../../ledger/index.js";
import { settledPnlAt } from "../boards/leaderboard.js";
import { keysetPages } from "../../store/raw-sql.js";

export interface Mover {
  wallet: string;
  display_name: string | null;
  pnl_now: number;
  delta: number;
  win_rate: number;
  closed_count: number;
  is_smart: boolean;
  sparkline: number[];
}

type StatsRow = { wallet: string; win_rate: number; wins: number; losses: number; is_smart: number };
const STATS_PAGE = 2_000;

/** The non-farmers' statistics a page at a time (by address), yielding between pages: the rows are wide. */
function nonFarmerPages(store: Store): AsyncGenerator<StatsRow[]> {
  return keysetPages(
    STATS_PAGE,
    (after) =>
      store.db
        .selectFrom("wallet_stats")
        .select(["wallet", "win_rate", "wins", "losses", "is_smart"])
        .where("is_farmer", "=", 0)
        .where("wallet", ">", after)
        .orderBy("wallet")
        .limit(STATS_PAGE)
        .execute(),
    (row) => row.wallet,
  );
}

/**
 * The sparkline holds the P&L as of `now - days` and of each following day boundary, ending with the P&L as of
 * `now` (the last daily point at or before each instant; 0 before the first). delta = last - first.
 */
export async function topMovers(store: Store, now: number, days: number, limit: number): Promise<Mover[]> {
  const start = now - days * SECONDS_PER_DAY;
  const moves: Array<{ s: StatsRow; pnl: number; delta: number }> = [];
  for await (const page of nonFarmerPages(store)) {
    const settled = await settledPnlAt(
      store,
      page.map((s) => s.wallet),
      start,
      now,
    );
    for (const s of page) {
      const pnl = settled.get(s.wallet) ?? { from: 0, to: 0 };
      moves.push({ s, pnl: pnl.to, delta: pnl.to - pnl.from });
    }
  }
  const top = moves
    .filter((m) => m.delta > 0)
    .sort((a, b) => b.delta - a.delta || a.s.wallet.localeCompare(b.s.wallet))
    .slice(0, limit);
  if (top.length === 0) return [];
  const wallets = top.map((m) => m.s.wallet);
  const [points, names] = await Promise.all([seriesOfWallets(store, "day", wallets), loadNames(store, wallets)]);
  const instants = Array.from({ length: days }, (_, i) => start + i * SECONDS_PER_DAY).concat(now);
  return top.map(({ s, pnl, delta }) => {
    const mine = (points.get(s.wallet) ?? []).filter((p) => p.t <= now);
    const sparkline = instants.map((at) => {
      let value = 0;
      for (const p of mine) if (p.t <= at) value = p.pnl;
      return value;
    });
    return {
      wallet: s.wallet,
      display_name: names.get(s.wallet) ?? null,
      pnl_now: pnl,
      delta,
      win_rate: s.win_rate,
      closed_count: s.wins + s.losses,
      is_smart: s.is_smart === 1,
      sparkline,
    };
  });
}
