/** Tests' view of the packed P&L series (src/store/pnl-series.ts): every stored point as a row, in key order. */
import type { Store } from "../database.js";
import { type PnlPointRow, seriesOfWallets } from "../pnl-series.js";

/** Our stored points (of one wallet or resolution when given), by wallet, resolution and time. */
export async function storedPnlPoints(
  store: Pick<Store, "db" | "kind">,
  filter: { wallet?: string; resolution?: "hour" | "day" } = {},
): Promise<PnlPointRow[]> {
  const rows: PnlPointRow[] = [];
  for (const resolution of ["day", "hour"] as const) {
    if (filter.resolution && filter.resolution !== resolution) continue;
    const series = await seriesOfWallets(store, resolution, filter.wallet ? [filter.wallet] : "all");
    for (const [wallet, points] of series) for (const { t, pnl } of points) rows.push({ wallet, resolution, t, pnl });
  }
  return rows.sort((a, b) => a.wallet.localeCompare(b.wallet) || a.resolution.localeCompare(b.resolution) || a.t - b.t);
}

/** The venue's stored curve points, by wallet and time. */
export async function storedVenuePnlPoints(store: Pick<Store, "db" | "kind">) {
  const series = await seriesOfWallets(store, "venue", "all");
  return [...series]
    .flatMap(([wallet, points]) => points.map(({ t, pnl }) => ({ wallet, t, pnl })))
    .sort((a, b) => a.wallet.localeCompare(b.wallet) || a.t - b.t);
}

/** Each wallet's cumulative settled P&L at an instant as tests recompute it: its last daily point at or before, else 0. */
export async function dailyPnlAt(store: Pick<Store, "db" | "kind">): Promise<(wallet: string, at: number) => number> {
  const daily = await seriesOfWallets(store, "day", "all");
  return (wallet, at) => {
    let pnl = 0;
    for (const point of daily.get(wallet) ?? []) if (point.t <= at) pnl = point.pnl;
    return pnl;
  };
}
