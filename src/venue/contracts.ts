/**
 * The venue's contracts on Polygon, as data: one table of every contract Pelagic reads or must never take for a
 * wallet, with its role and, for an exchange, the event layout it emits. docs/VENUE.md gives each address's
 * source. VENUE_EXTRA_EXCHANGES adds exchanges without a release (`useExtraExchanges`, called once per process or
 * thread at start, src/runtime and src/ingest/chain-reader-worker.ts); the table is process-wide.
 *
 * No protocol address is ever a wallet: not in fills, activity, leaderboards, search or presence (`isProtocolAddress`).
 */
import type { ExtraExchange } from "../config/settings.js";

export const POLYGON_CHAIN_ID = 137;

/** Named addresses the code refers to directly (checksummed as the venue publishes them). */
export const CONTRACTS = {
  ctfExchangeV1: "0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E",
  negRiskCtfExchangeV1: "0xC5d563A36AE78145C45a50134d48A1215220f80a",
  ctfExchangeV2: "0xE111180000d2663C0091e4f400237545B87B996B",
  negRiskCtfExchangeV2: "0xe2222d279d744050d28e00520010520000310F59",
  exchangeV3: "0xe3333700cA9d93003F00f0F71f8515005F6c00Aa",
  negRiskAdapter: "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296",
  conditionalTokens: "0x4D97DCd97eC945f40cF65F87097ACe5EA0476045",
  usdcE: "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174",
  pUsd: "0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB",
  /** The ConditionalTokens collateral of NegRisk markets (USDC.e wrapped by the NegRiskAdapter). */
  negRiskWrappedCollateral: "0x3A3BD7bb9528E159577F7C2e685CC81A765002E2",
  /** The V2 collateral adapters: splits, merges, redemptions and conversions in pUSD go through them. */
  ctfCollateralAdapter: "0xADa100874d00e3331D00F2007a9c336a65009718",
  negRiskCtfCollateralAdapter: "0xAdA200001000ef00D07553cEE7006808F895c6F1",
  ctfCollateralAdapter2: "0xAdA100Db00Ca00073811820692005400218FcE1f",
  negRiskCtfCollateralAdapter2: "0xadA2005600Dec949baf300f4C6120000bDB6eAab",
} as const;

/**
 * `NegRiskAdapter.getFeeBips(bytes32 marketId) returns (uint256)`: the conversion fee rate of a NegRisk market
 * (fixed when the market is prepared). Its selector, for `eth_call` data = selector + marketId.
 */
export const NEG_RISK_GET_FEE_BIPS_SELECTOR = "0x2582cb5e";

export type ExchangeVersion = "v1" | "v2";

/** The names the contract-address error body may give (the contract lists these four). */
export type ExchangeContractType = "CTF Exchange V1" | "NegRisk CTF V1" | "CTF Exchange V2" | "NegRisk CTF V2";

export type ContractRole =
  /** Emits OrderFilled and OrdersMatched in `layout`. */
  | "exchange"
  /** ConditionalTokens: splits, merges, redemptions, resolutions, and the ERC-1155 transfers of outcome tokens. */
  | "conditional-tokens"
  /** NegRiskAdapter: conversions, and NegRisk splits, merges and redemptions of its own. */
  | "neg-risk-adapter"
  /** Acts for a wallet: the ConditionalTokens or NegRiskAdapter event names it, the wallet is found in the transfers. */
  | "collateral-adapter"
  | "collateral"
  /** Holds or moves tokens for the protocol (vaults, routers, position ledgers): never a wallet, nothing to read. */
  | "protocol";

export interface VenueContract {
  readonly name: string;
  /** Lower case. */
  readonly address: string;
  readonly role: ContractRole;
  /** An exchange's event layout. */
  readonly layout?: ExchangeVersion;
  /** The contract-address error's name for it, for the four exchanges the contract names. */
  readonly contractType?: ExchangeContractType;
}

const contract = (
  name: string,
  address: string,
  role: ContractRole,
  extra: Pick<VenueContract, "layout" | "contractType"> = {},
): VenueContract => ({ name, address: address.toLowerCase(), role, ...extra });

/** Every contract Pelagic knows, with the sources in docs/VENUE.md. */
export const BUILT_IN_CONTRACTS: readonly VenueContract[] = [
  contract("CTF Exchange V1", CONTRACTS.ctfExchangeV1, "exchange", { layout: "v1", contractType: "CTF Exchange V1" }),
  contract("NegRisk CTF Exchange V1", CONTRACTS.negRiskCtfExchangeV1, "exchange", {
    layout: "v1",
    contractType: "NegRisk CTF V1",
  }),
  contract("CTF Exchange V2", CONTRACTS.ctfExchangeV2, "exchange", { layout: "v2", contractType: "CTF Exchange V2" }),
  contract("NegRisk CTF Exchange V2", CONTRACTS.negRiskCtfExchangeV2, "exchange", {
    layout: "v2",
    contractType: "NegRisk CTF V2",
  }),
  // The NegRisk V2 exchange's address of 2026-04-01 to 04-04, before the venue replaced it.
  contract("NegRisk CTF Exchange V2 (first deployment)", "0xe2222d002000Ba0053CEF3375333610F64600036", "exchange", {
    layout: "v2",
  }),
  contract("Exchange V3", CONTRACTS.exchangeV3, "exchange", { layout: "v2" }),
  contract("ConditionalTokens", CONTRACTS.conditionalTokens, "conditional-tokens"),
  contract("NegRiskAdapter", CONTRACTS.negRiskAdapter, "neg-risk-adapter"),
  contract("CtfCollateralAdapter", CONTRACTS.ctfCollateralAdapter, "collateral-adapter"),
  contract("NegRiskCtfCollateralAdapter", CONTRACTS.negRiskCtfCollateralAdapter, "collateral-adapter"),
  contract("CtfCollateralAdapter (second)", CONTRACTS.ctfCollateralAdapter2, "collateral-adapter"),
  contract("NegRiskCtfCollateralAdapter (second)", CONTRACTS.negRiskCtfCollateralAdapter2, "collateral-adapter"),
  contract("USDC.e", CONTRACTS.usdcE, "collateral"),
  contract("pUSD", CONTRACTS.pUsd, "collateral"),
  contract("NegRisk WrappedCollateral", CONTRACTS.negRiskWrappedCollateral, "protocol"),
  contract("NegRisk Vault", "0x7f67327E88c258932D7d8f72950bE0d46975E11D", "protocol"),
  contract("NegRisk NO token burn address", "0xa5ef39c3d3e10d0b270233af41cac69796b12966", "protocol"),
  contract("pUSD CollateralOnramp", "0x93070a847efEf7F70739046A929D47a521F5B8ee", "protocol"),
  contract("pUSD CollateralOfframp", "0x2957922Eb93258b93368531d39fAcCA3B4dC5854", "protocol"),
  contract("PositionManager (exchange V3)", "0x006F54F7f9A22e0000CC2AB60031000000ae9fEF", "protocol"),
  contract("Router (exchange V3)", "0x12121212006e4CD160D18e3f00711DA5c3372600", "protocol"),
  contract("AutoRedeemer (exchange V3)", "0xa1200000d0002264C9a1698e001292D00E1b00af", "protocol"),
];

interface Lookups {
  readonly all: readonly VenueContract[];
  readonly byAddress: ReadonlyMap<string, VenueContract>;
  readonly protocolLeadingDigits: ReadonlySet<number>;
}

/**
 * Characters 2..5 of an address (its first four hex digits), lower-cased arithmetically: no string is made, and the
 * key stays a small integer (six digits made a heap number per call).
 */
function leadingDigits(address: string): number {
  let key = 0;
  for (let i = 2; i < 6; i++) key = key * 128 + (address.charCodeAt(i) | 0x20);
  return key;
}

function lookups(all: readonly VenueContract[]): Lookups {
  return {
    all,
    byAddress: new Map(all.map((c) => [c.address, c])),
    protocolLeadingDigits: new Set(all.map((c) => leadingDigits(c.address))),
  };
}

let table = lookups(BUILT_IN_CONTRACTS);

/**
 * Adds VENUE_EXTRA_EXCHANGES to the built-in table (replacing extras given before). An address the table knows
 * keeps its entry: the setting adds exchanges, it does not rename the venue's contracts.
 */
export function useExtraExchanges(extra: readonly ExtraExchange[]): void {
  const added = extra
    .filter((e) => !BUILT_IN_CONTRACTS.some((c) => c.address === e.address))
    .map((e) => contract(`exchange ${e.address} (VENUE_EXTRA_EXCHANGES)`, e.address, "exchange", { layout: e.layout }));
  table = lookups([...BUILT_IN_CONTRACTS, ...added]);
}

/** Every contract of the table, VENUE_EXTRA_EXCHANGES included. */
export function venueContracts(): readonly VenueContract[] {
  return table.all;
}

/** The table's entry for an address (any letter case), if any. */
export function venueContract(address: string): VenueContract | undefined {
  return table.byAddress.get(address.toLowerCase());
}

/** Addresses of the contracts with one of these roles (lower case), as eth_getLogs `address` values. */
export function addressesWithRole(...roles: ContractRole[]): `0x${string}`[] {
  return table.all.filter((c) => roles.includes(c.role)).map((c) => c.address as `0x${string}`);
}

export function exchangeContractType(address: string): ExchangeContractType | undefined {
  return venueContract(address)?.contractType;
}

/** Addresses whose rows are protocol mechanics, never a wallet's own action: every contract of the table. */
export function isProtocolAddress(address: string): boolean {
  // Called twice per fill in a backfill, nearly always for a wallet: its first digits rule it out without the
  // lower-cased copy of the address (which was 5% of a SQLite backfill's CPU).
  if (address.length !== 42 || !table.protocolLeadingDigits.has(leadingDigits(address))) return false;
  return table.byAddress.has(address.toLowerCase());
}

/** The event layout an exchange at this address emits; undefined for any other address. */
export function exchangeVersion(address: string): ExchangeVersion | undefined {
  return venueContract(address)?.layout;
}

/** Whether the address is a collateral adapter, which acts for the wallet that called it. */
export function isCollateralAdapter(address: string): boolean {
  return venueContract(address)?.role === "collateral-adapter";
}

/** Collateral of each generation: USDC.e for V1, pUSD for V2 (both 6 decimals, like outcome tokens). */
export const COLLATERAL_BY_VERSION: Readonly<Record<ExchangeVersion, `0x${string}`>> = {
  v1: CONTRACTS.usdcE,
  v2: CONTRACTS.pUsd,
};

/** Collateral and outcome tokens both have 6 decimals: 1 share = 1_000_000 micro-units. */
export const TOKEN_DECIMALS = 6;
