/**
 * The venue's contracts on Polygon (the venue's Polygon contracts). The four exchange addresses are the
 * "contract addresses" of the contract: never a wallet.
 */

export const POLYGON_CHAIN_ID = 137;

export const CONTRACTS = {
  ctfExchangeV1: "0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E",
  negRiskCtfExchangeV1: "0xC5d563A36AE78145C45a50134d48A1215220f80a",
  ctfExchangeV2: "0xE111180000d2663C0091e4f400237545B87B996B",
  negRiskCtfExchangeV2: "0xe2222d279d744050d28e00520010520000310F59",
  negRiskAdapter: "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296",
  conditionalTokens: "0x4D97DCd97eC945f40cF65F87097ACe5EA0476045",
  usdcE: "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174",
  pUsd: "0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB",
} as const;

/**
 * `NegRiskAdapter.getFeeBips(bytes32 marketId) returns (uint256)`: the conversion fee rate of a NegRisk market
 * (fixed when the market is prepared). Its selector, for `eth_call` data = selector + marketId.
 */
export const NEG_RISK_GET_FEE_BIPS_SELECTOR = "0x2582cb5e";

export type ExchangeContractType = "CTF Exchange V1" | "NegRisk CTF V1" | "CTF Exchange V2" | "NegRisk CTF V2";

/** Lower-cased exchange address → the contract's name, as the contract-address error body names it. */
export const EXCHANGE_CONTRACTS: ReadonlyMap<string, ExchangeContractType> = new Map([
  [CONTRACTS.ctfExchangeV1.toLowerCase(), "CTF Exchange V1"],
  [CONTRACTS.negRiskCtfExchangeV1.toLowerCase(), "NegRisk CTF V1"],
  [CONTRACTS.ctfExchangeV2.toLowerCase(), "CTF Exchange V2"],
  [CONTRACTS.negRiskCtfExchangeV2.toLowerCase(), "NegRisk CTF V2"],
]);

export function exchangeContractType(address: string): ExchangeContractType | undefined {
  return EXCHANGE_CONTRACTS.get(address.toLowerCase());
}

const PROTOCOL_ADDRESSES: ReadonlySet<string> = new Set([
  ...EXCHANGE_CONTRACTS.keys(),
  CONTRACTS.negRiskAdapter.toLowerCase(),
]);

/**
 * Characters 2..5 of an address (its first four hex digits), lower-cased arithmetically: no string is made, and the
 * key stays a small integer (six digits made a heap number per call).
 */
function leadingDigits(address: string): number {
  let key = 0;
  for (let i = 2; i < 6; i++) key = key * 128 + (address.charCodeAt(i) | 0x20);
  return key;
}

const PROTOCOL_LEADING_DIGITS: ReadonlySet<number> = new Set([...PROTOCOL_ADDRESSES].map(leadingDigits));

/** Addresses whose rows are trade mechanics, never a wallet's own action (exchanges and the NegRisk adapter). */
export function isProtocolAddress(address: string): boolean {
  // Called twice per fill in a backfill, nearly always for a wallet: its first digits rule it out without the
  // lower-cased copy of the address (which was 5% of a SQLite backfill's CPU).
  if (address.length !== 42 || !PROTOCOL_LEADING_DIGITS.has(leadingDigits(address))) return false;
  return PROTOCOL_ADDRESSES.has(address.toLowerCase());
}

export type ExchangeVersion = "v1" | "v2";

/** Lower-cased exchange address → the exchange generation whose event layout it emits. */
const EXCHANGE_VERSIONS: ReadonlyMap<string, ExchangeVersion> = new Map([
  [CONTRACTS.ctfExchangeV1.toLowerCase(), "v1"],
  [CONTRACTS.negRiskCtfExchangeV1.toLowerCase(), "v1"],
  [CONTRACTS.ctfExchangeV2.toLowerCase(), "v2"],
  [CONTRACTS.negRiskCtfExchangeV2.toLowerCase(), "v2"],
]);

export function exchangeVersion(address: string): ExchangeVersion | undefined {
  return EXCHANGE_VERSIONS.get(address.toLowerCase());
}

/** The exchange addresses of one generation, as eth_getLogs `address` filters. */
export function exchangeAddresses(version?: ExchangeVersion): `0x${string}`[] {
  const all = [
    CONTRACTS.ctfExchangeV1,
    CONTRACTS.negRiskCtfExchangeV1,
    CONTRACTS.ctfExchangeV2,
    CONTRACTS.negRiskCtfExchangeV2,
  ];
  return all.filter((a) => version === undefined || exchangeVersion(a) === version);
}

/** Collateral of each generation: USDC.e for V1, pUSD for V2 (both 6 decimals, like outcome tokens). */
export const COLLATERAL_BY_VERSION: Readonly<Record<ExchangeVersion, `0x${string}`>> = {
  v1: CONTRACTS.usdcE,
  v2: CONTRACTS.pUsd,
};

/** Collateral and outcome tokens both have 6 decimals: 1 share = 1_000_000 micro-units. */
export const TOKEN_DECIMALS = 6;
