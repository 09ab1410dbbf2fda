/**
 * Who signs for a proxy wallet. The venue's browser-wallet accounts are Gnosis Safes (1-of-1) whose owner is the
 * user's EOA; `Safe.getOwners() returns (address[])` names it. Other proxies (the venue's email-login proxy
 * wallets) have no such view: the call reverts, and the signer stays unknown.
 */
import { JsonRpcError, type ChainClient } from "./chain/client.js";

/** `getOwners()` selector: keccak256("getOwners()")[0..4]. */
export const SAFE_GET_OWNERS_SELECTOR = "0xa0e67e2b";

const WORD = 64;

/** Decodes an ABI `address[]` return value; null when the data is not one. */
export function decodeAddressArray(data: string): string[] | null {
  if (!/^0x([0-9a-fA-F]{64})*$/.test(data) || data.length < 2 + 2 * WORD) return null;
  const words = data.slice(2).toLowerCase();
  const word = (i: number) => words.slice(i * WORD, (i + 1) * WORD);
  const offset = Number.parseInt(word(0), 16);
  if (offset % 32 !== 0) return null;
  const lengthAt = offset / 32;
  const length = Number.parseInt(word(lengthAt) || "x", 16);
  if (!Number.isSafeInteger(length) || words.length < (lengthAt + 1 + length) * WORD) return null;
  const owners: string[] = [];
  for (let i = 0; i < length; i++) {
    const w = word(lengthAt + 1 + i);
    if (!w.startsWith("0".repeat(24))) return null;
    owners.push(`0x${w.slice(24)}`);
  }
  return owners;
}

/**
 * The one owner of a 1-of-1 Safe at `proxy`; null when the proxy is not a Safe (the call reverts or answers
 * nothing) or has several owners (no single signer). Transport failures are thrown.
 */
export async function safeSigner(chain: ChainClient, proxy: string, signal?: AbortSignal): Promise<string | null> {
  let result: unknown;
  try {
    result = await chain.call(
      "eth_call",
      [{ to: proxy.toLowerCase(), data: SAFE_GET_OWNERS_SELECTOR }, "latest"],
      signal,
    );
  } catch (error) {
    // A node answers a non-Safe with a revert (or, for an address without code, an empty result).
    if (error instanceof JsonRpcError) return null;
    throw error;
  }
  const owners = typeof result === "string" ? decodeAddressArray(result) : null;
  return owners?.length === 1 ? owners[0]! : null;
}
