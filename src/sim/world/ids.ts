/**
 * Deterministic identifiers of the simulated venue, derived from (world seed, domain, index) by hashWords:
 * nothing is stored for them, so a 10-million-fill world holds no hash strings until someone asks for one.
 */
import { hashString } from "../../platform/hash.js";
import { hashWords } from "./random.js";

export type Hex = `0x${string}`;

/** Domains of derived identifiers; one label each so that no two kinds of id share a stream. */
export const ID_DOMAIN = {
  walletProxy: hashString("wallet-proxy"),
  walletSigner: hashString("wallet-signer"),
  condition: hashString("condition-id"),
  question: hashString("question-id"),
  negRiskMarket: hashString("negrisk-market-id"),
  tokenYes: hashString("token-yes"),
  tokenNo: hashString("token-no"),
  txMatch: hashString("tx-match"),
  txOp: hashString("tx-op"),
  order: hashString("order-hash"),
  block: hashString("block-hash"),
  /** Accounts that fund wallets and are not wallets of the world: funders, hop wallets, personal accounts. */
  fundingAccount: hashString("funding-account"),
  txFunding: hashString("tx-funding"),
} as const;

const scratch = new Uint32Array(8);
/** `0x` and up to 64 hex digits, as bytes: one flat string per id (a string joined of pieces costs each reader a flattening). */
const text = Buffer.alloc(2 + 64, "0x", "latin1");
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

function wordsToHex(words: Uint32Array, count: number): Hex {
  for (let i = 0; i < count; i++) {
    const word = words[i] as number;
    for (let k = 0; k < 8; k++) text[2 + i * 8 + k] = HEX_DIGITS[(word >>> (28 - 4 * k)) & 15] as number;
  }
  return text.toString("latin1", 0, 2 + count * 8) as Hex;
}

/** 0x + 64 lower-case hex digits. */
export function bytes32(key: readonly [number, number], domain: number, index: number): Hex {
  return wordsToHex(hashWords(key, domain, index, 8, scratch), 8);
}

/** A lower-case 20-byte address (the Data API's spelling of proxyWallet). */
export function address(key: readonly [number, number], domain: number, index: number): Hex {
  return wordsToHex(hashWords(key, domain, index, 5, scratch), 5);
}

/** A uint256 as a decimal string (the shape of clobTokenIds and ERC-1155 position ids). */
export function uint256Decimal(key: readonly [number, number], domain: number, index: number): string {
  return BigInt(bytes32(key, domain, index)).toString(10);
}

/**
 * A NegRisk market id: 32 bytes whose last byte is zero, so that question ids are the market id plus the
 * question's index (the NegRiskAdapter's own scheme).
 */
export function negRiskMarketId(key: readonly [number, number], eventIndex: number): Hex {
  return `${bytes32(key, ID_DOMAIN.negRiskMarket, eventIndex).slice(0, 64)}00` as Hex;
}

export function negRiskQuestionId(marketId: Hex, questionIndex: number): Hex {
  return `${marketId.slice(0, 64)}${questionIndex.toString(16).padStart(2, "0")}` as Hex;
}
