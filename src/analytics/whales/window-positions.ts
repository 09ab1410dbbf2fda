/**
 * Where each wallet's and each market's fills sit in a copy of the whale fills' window (whale-fill-window.ts), so
 * that a feed filtered by wallet or market walks those fills only: walking the whole window back to the filter's
 * first match cost what the window holds, which grows with the venue's daily flow (a 10M-fill world's window holds
 * ten times a 1M one's). Built once per copy, on the first filtered read of it (the window's refresh replaces the
 * copy, and the positions go with it).
 */
import type { WhaleFill } from "./whale-fill-window.js";

interface Positions {
  readonly byWallet: ReadonlyMap<string, readonly number[]>;
  readonly byCondition: ReadonlyMap<string, readonly number[]>;
}

const positionsOfCopy = new WeakMap<readonly WhaleFill[], Positions>();

function positionsOf(fills: readonly WhaleFill[]): Positions {
  let positions = positionsOfCopy.get(fills);
  if (!positions) {
    const byWallet = new Map<string, number[]>();
    const byCondition = new Map<string, number[]>();
    fills.forEach((f, i) => {
      const ofWallet = byWallet.get(f.wallet);
      if (ofWallet) ofWallet.push(i);
      else byWallet.set(f.wallet, [i]);
      const ofCondition = byCondition.get(f.condition_id);
      if (ofCondition) ofCondition.push(i);
      else byCondition.set(f.condition_id, [i]);
    });
    positions = { byWallet, byCondition };
    positionsOfCopy.set(fills, positions);
  }
  return positions;
}

/**
 * The positions in `fills` below `end`, newest first, that can match the filter: the named wallets' fills, or the
 * market's (whichever are fewer when both are named), every fill when neither is.
 */
export function* candidatesNewestFirst(
  fills: readonly WhaleFill[],
  end: number,
  filter: { wallets: ReadonlySet<string> | null; conditionId: string | null },
): Generator<number> {
  if (filter.wallets === null && filter.conditionId === null) {
    for (let i = end - 1; i >= 0; i--) yield i;
    return;
  }
  const { byWallet, byCondition } = positionsOf(fills);
  const ofMarket = filter.conditionId === null ? null : (byCondition.get(filter.conditionId) ?? []);
  const ofWallets =
    filter.wallets === null
      ? null
      : [...filter.wallets].flatMap((wallet) => byWallet.get(wallet) ?? []).sort((a, b) => a - b);
  const walk =
    ofMarket && ofWallets ? (ofMarket.length <= ofWallets.length ? ofMarket : ofWallets) : (ofMarket ?? ofWallets)!;
  let lo = 0;
  let hi = walk.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (walk[mid]! < end) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1; k >= 0; k--) yield walk[k]!;
}
