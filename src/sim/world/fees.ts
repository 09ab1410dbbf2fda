/**
 * Money arithmetic of fills. Taker fees (the venue's fee schedule): fee = C * rate * p * (1 - p) in collateral, C the shares of the taker's
 * fill and p its price, rounded to 5 decimals; makers pay none. The fee is paid in collateral on top of the
 * trade (BUY) or out of its proceeds (SELL); share amounts are never reduced by it.
 */

/** Fee in collateral micro-units (a multiple of 10) for `sizeMicro` shares at `priceMicro`. */
export function takerFeeMicro(sizeMicro: number, priceMicro: number, rateBps: number): number {
  if (rateBps === 0) return 0;
  const p = priceMicro / 1e6;
  const feeUsd = (sizeMicro / 1e6) * (rateBps / 10_000) * p * (1 - p);
  return Math.round(feeUsd * 1e5) * 10;
}

/** Collateral (micro) of `sizeMicro` shares at `priceMicro`: size * price / 1e6, exact (truncated) at any size. */
export function notionalMicro(sizeMicro: number, priceMicro: number): number {
  const p = sizeMicro * priceMicro;
  if (Number.isSafeInteger(p)) return (p - (p % 1_000_000)) / 1_000_000;
  return Number((BigInt(sizeMicro) * BigInt(priceMicro)) / 1_000_000n);
}
