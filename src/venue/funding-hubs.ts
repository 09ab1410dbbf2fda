/**
 * Funding hubs: addresses that send collateral to a great many unrelated people (exchange hot wallets, the bridge
 * that mints bridged USDC.e). A hub ends a funding path and groups nobody: two wallets withdrawn from one exchange
 * share nothing but the exchange. The table holds public address labels; `FUNDING_HUBS` adds more without a release,
 * and an account that funded `FUNDING_HUB_FANOUT` of the addresses Pelagic traced counts as one too
 * (src/ledger/funding-graph.ts).
 */
import type { ExtraHub } from "../config/settings.js";
import { venueContract } from "./contracts.js";

export type HubKind = "exchange" | "bridge" | "configured";

export interface FundingHub {
  /** Lower case. */
  readonly address: string;
  readonly name: string;
  readonly kind: HubKind;
}

export const BUILT_IN_HUBS: readonly FundingHub[] = [
  { address: "0xe7804c37c13166ff0b37f5ae0bb07a3aebb6e245", name: "Binance hot wallet (Polygon)", kind: "exchange" },
  { address: "0x28c6c06298d514db089934071355e5743bf21d60", name: "Binance 14", kind: "exchange" },
  { address: "0x71660c4005ba85c37ccec55d0c4493e66fe775d3", name: "Coinbase hot wallet", kind: "exchange" },
  { address: "0x0a869d79a7052c7f1b55a8ebabbea3420f0d1e13", name: "Kraken hot wallet", kind: "exchange" },
  { address: "0x6cc5f688a315f3dc28a7781717a9a798a59fda7b", name: "OKX hot wallet", kind: "exchange" },
  // Bridged USDC.e is minted: its Transfer comes from the zero address.
  { address: "0x0000000000000000000000000000000000000000", name: "Polygon PoS bridge (mint)", kind: "bridge" },
];

/** The hubs of this configuration: the built-in table and `FUNDING_HUBS`. */
export function fundingHubs(extra: readonly ExtraHub[]): ReadonlyMap<string, FundingHub> {
  const hubs = new Map(BUILT_IN_HUBS.map((hub) => [hub.address, hub]));
  for (const { address, name } of extra)
    if (!hubs.has(address)) hubs.set(address, { address, name, kind: "configured" });
  return hubs;
}

/**
 * Whether a transfer from `address` is funding: the venue's own contracts pay out trades, merges and redemptions
 * (what a wallet earns on the venue, not money brought to it).
 */
export function isFundingSender(address: string): boolean {
  return venueContract(address) === undefined;
}
