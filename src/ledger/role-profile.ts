/**
 * The leaderboards' behaviour label of a wallet (docs/METRICS.md, role_profile), from its share of volume as the
 * resting maker over the last BOARD_WINDOW_DAYS and its average entry price.
 */
import type { Config } from "../config/index.js";
import { MICRO } from "../venue/units.js";
import type { LedgerState } from "./state.js";
import type { WalletBook } from "./wallets.js";

export const ROLE_PROFILES = ["market maker", "favourite buyer", "longshot buyer", "directional"] as const;
export type RoleProfile = (typeof ROLE_PROFILES)[number];

export type RoleThresholds = Pick<
  Config["boards"],
  "roleMakerShare" | "roleFavouriteAvgEntry" | "roleLongshotAvgEntry"
>;

export function roleProfile(
  makerShare: number | null,
  avgEntry: number | null,
  thresholds: RoleThresholds,
): RoleProfile {
  if (makerShare !== null && makerShare >= thresholds.roleMakerShare) return "market maker";
  if (avgEntry !== null && avgEntry >= thresholds.roleFavouriteAvgEntry) return "favourite buyer";
  if (avgEntry !== null && avgEntry <= thresholds.roleLongshotAvgEntry) return "longshot buyer";
  return "directional";
}

/** The share of a volume traded as the resting maker; null without volume. */
export function makerShare(makerVolume: number, volume: number): number | null {
  return volume > 0 ? makerVolume / volume : null;
}

/** Σ average price × shares bought / Σ shares bought over a wallet's positions; null when it bought nothing. */
export function averageEntryPrice(state: LedgerState, book: WalletBook | undefined): number | null {
  let weighted = 0;
  let bought = 0;
  if (book) {
    for (const p of state.positionIndices(book)) {
      const position = state.positions.read(p);
      weighted += (position.avgPrice / MICRO) * position.totalBought;
      bought += position.totalBought;
    }
  }
  return bought > 0 ? weighted / bought : null;
}
