/**
 * The venue's contracts on Polygon (design/venue.md section 4). The four exchange addresses are the
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

/** Addresses whose rows are trade mechanics, never a wallet's own action (exchanges and the NegRisk adapter). */
export function isProtocolAddress(address: string): boolean {
  const a = address.toLowerCase();
  return EXCHANGE_CONTRACTS.has(a) || a === CONTRACTS.negRiskAdapter.toLowerCase();
}
