/**
 * The arithmetic of the venue's P&L subgraph (docs/METRICS.md, positions and P&L), reproduced bit for bit.
 *
 * The subgraph keeps every amount as an integer of 6 decimals (shares, collateral and prices alike:
 * a price of 0.57 is 570000) and divides with integer division that truncates toward zero. Its
 * rounding is part of the venue's numbers: an average price truncated to 6 decimals moves a large
 * position's realized P&L by more than a cent, so "exact decimal" arithmetic would NOT agree to the cent.
 * We therefore compute the same truncated integers.
 *
 * Products such as `avgPrice * amount` reach 1e20 and overflow a double's 2^53 exact range, and BigInt
 * costs an allocation per operation. The functions below split operands into base-1e6 digits so every
 * intermediate stays an exact integer below 2^53, and fall back to BigInt only for positions beyond
 * about 4 billion shares (never seen on the venue). `fixed-point.test.ts` checks them against BigInt.
 */
import { MICRO } from "../venue/units.js";

/** A price of 0.50, at which splits and merges are booked. */
export const FIFTY_CENTS = 500_000;

const SAFE = Number.MAX_SAFE_INTEGER;
/**
 * Bounds under which `divideWide` is exact: prices up to 2^30 micro-units (1073 USD a share) and
 * amounts up to 2^50 micro-shares (1.1 billion shares). Outside them, BigInt.
 */
const MAX_FAST_PRICE = 2 ** 30;
const MAX_FAST_AMOUNT = 2 ** 50;
const MAX_FAST_PRODUCT = (SAFE / 2) * MICRO;

/**
 * trunc((high * 1e6 + low) / divisor) for divisor > 0, exactly, when the quotient is a price within
 * MAX_FAST_PRICE, the divisor within MAX_FAST_AMOUNT, |low| < 2^52 and |high| < 2^52: then
 * `quotient * divisor` can be formed digit by digit with every partial result below 2^53.
 */
function divideWide(high: number, low: number, divisor: number): number {
  let quotient = Math.floor((high * MICRO + low) / divisor);
  const divisorLow = divisor % MICRO;
  const divisorHigh = (divisor - divisorLow) / MICRO;
  // Exact remainder: both digit differences are exact, and their recombination is below 2^53
  // because the true remainder is within a few divisors of zero.
  let remainder = (high - quotient * divisorHigh) * MICRO + (low - quotient * divisorLow);
  while (remainder < 0) {
    quotient--;
    remainder += divisor;
  }
  while (remainder >= divisor) {
    quotient++;
    remainder -= divisor;
  }
  return quotient < 0 && remainder !== 0 ? quotient + 1 : quotient;
}

function bigDivTrunc(numerator: bigint, divisor: bigint): number {
  return Number(numerator / divisor);
}

/**
 * The subgraph's buy: `(avgPrice * amount + price * quantity) / (amount + quantity)`, truncated.
 * All arguments are integers in micro-units; `amount >= 0`, `quantity > 0`.
 */
export function weightedAveragePrice(avgPrice: number, amount: number, price: number, quantity: number): number {
  const total = amount + quantity;
  const largestPrice = Math.max(Math.abs(avgPrice), Math.abs(price));
  if (largestPrice > MAX_FAST_PRICE || total > MAX_FAST_AMOUNT || largestPrice * total >= MAX_FAST_PRODUCT) {
    return bigDivTrunc(BigInt(avgPrice) * BigInt(amount) + BigInt(price) * BigInt(quantity), BigInt(total));
  }
  const amountLow = amount % MICRO;
  const quantityLow = quantity % MICRO;
  const high = avgPrice * ((amount - amountLow) / MICRO) + price * ((quantity - quantityLow) / MICRO);
  const low = avgPrice * amountLow + price * quantityLow;
  return divideWide(high, low, total);
}

/**
 * The subgraph's sell P&L: `quantity * priceDelta / 1e6`, truncated toward zero, where
 * `priceDelta = price - avgPrice` (micro-units) and `quantity >= 0` (micro-shares).
 */
export function realizedDelta(quantity: number, priceDelta: number): number {
  if (quantity === 0 || priceDelta === 0) return 0;
  const negative = priceDelta < 0;
  const magnitude = negative ? -priceDelta : priceDelta;
  const quantityLow = quantity % MICRO;
  const quantityHigh = (quantity - quantityLow) / MICRO;
  if (magnitude > 2 ** 31 || quantityHigh * magnitude > SAFE) {
    return bigDivTrunc(BigInt(quantity) * BigInt(priceDelta), BigInt(MICRO));
  }
  // quantityLow * magnitude < 2^51, and its quotient by 1e6 is far enough from the next integer
  // (at least 1e-6) for the correctly rounded division to floor exactly.
  const result = quantityHigh * magnitude + Math.floor((quantityLow * magnitude) / MICRO);
  return negative ? 0 - result : result;
}

/**
 * Price of a fill as the subgraph derives it from the settled amounts: `usd * 1e6 / size`, truncated.
 * Returns 0 for an empty fill.
 */
export function fillPrice(usd: number, size: number): number {
  if (size <= 0) return 0;
  if (size > MAX_FAST_AMOUNT || usd > SAFE / 2 || usd > (size / MICRO) * MAX_FAST_PRICE) {
    return bigDivTrunc(BigInt(usd) * BigInt(MICRO), BigInt(size));
  }
  return divideWide(usd, 0, size);
}

/** A price 0..1 (a float such as a payout) as micro-units; payouts are 0, 0.5 and 1 in practice. */
export function toMicroPrice(price: number): number {
  return Math.round(price * MICRO);
}

/**
 * NegRisk conversion prices (docs/METRICS.md, positions and P&L): the mean of the given-up NO average prices, then
 * `yesPrice = (noPrice * noCount - 1e6 * (noCount - 1)) / (questionCount - noCount)`, both truncated.
 * Operands are small (prices times question counts), so plain doubles are exact here.
 */
export function negRiskYesPrice(noAvgPriceSum: number, noCount: number, questionCount: number): number {
  const noPrice = Math.trunc(noAvgPriceSum / noCount);
  return Math.trunc((noPrice * noCount - MICRO * (noCount - 1)) / (questionCount - noCount));
}
