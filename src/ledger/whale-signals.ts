/**
 * The rules of two whale signals read from net positions (docs/METRICS.md, whale flips and conviction clusters).
 * A net position is YES cost minus NO cost at average entry, in USD; a whale stands on a side of a market when
 * that net puts it on a team (`teamOf`, the consensus minimum), so a flip and a cluster start where consensus does.
 */
import { teamOf } from "./consensus.js";
import type { OutcomeSide } from "./types.js";

export interface WhaleFlip {
  oldSide: OutcomeSide;
  newSide: OutcomeSide;
  /** |old net| + |new net|, USD. */
  swingUsd: number;
}

/**
 * A whale flip: the whale stood on one team of a market at the comparison snapshot and stands on the other now,
 * and the swing |old| + |new| reaches `minSwingUsd`. Leaving a market (a net under the consensus minimum) is no flip.
 */
export function whaleFlip(
  oldNetUsd: number,
  newNetUsd: number,
  minTeamUsd: number,
  minSwingUsd: number,
): WhaleFlip | null {
  const oldSide = teamOf(oldNetUsd, minTeamUsd);
  const newSide = teamOf(newNetUsd, minTeamUsd);
  if (oldSide === null || newSide === null || oldSide === newSide) return null;
  const swingUsd = Math.abs(oldNetUsd) + Math.abs(newNetUsd);
  return swingUsd >= minSwingUsd ? { oldSide, newSide, swingUsd } : null;
}

/** One whale's net position in one market of an event. */
export interface EventStand {
  wallet: string;
  eventSlug: string;
  conditionId: string;
  netUsd: number;
}

export interface ClusterMember {
  wallet: string;
  /** Σ |net| over the cluster's markets where the member stands on its side, USD. */
  capitalUsd: number;
  /** The event's markets where the member stands on the cluster's side. */
  conditionIds: string[];
}

export interface ConvictionCluster {
  eventSlug: string;
  side: OutcomeSide;
  /** Largest capital first, then by address. */
  members: ClusterMember[];
  /** Markets where at least one member stands on the side, with the members standing there. */
  markets: Array<{ conditionId: string; wallets: string[]; capitalUsd: number }>;
  capitalUsd: number;
}

/**
 * Conviction clusters: per event and side, the whales standing on that side of at least `minMarkets` of the
 * event's markets; a cluster is such a group of at least `minWhales` whales. Its markets are those where one of its
 * members stands on the side, and its capital the members' nets there. Most whales first, then most capital.
 */
export function convictionClusters(
  stands: Iterable<EventStand>,
  rules: { minTeamUsd: number; minMarkets: number; minWhales: number },
): ConvictionCluster[] {
  const groups = new Map<
    string,
    { eventSlug: string; side: OutcomeSide; byWallet: Map<string, Array<{ conditionId: string; usd: number }>> }
  >();
  for (const stand of stands) {
    const side = teamOf(stand.netUsd, rules.minTeamUsd);
    if (side === null) continue;
    const key = `${stand.eventSlug}\u0000${side}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { eventSlug: stand.eventSlug, side, byWallet: new Map() }));
    let markets = group.byWallet.get(stand.wallet);
    if (!markets) group.byWallet.set(stand.wallet, (markets = []));
    markets.push({ conditionId: stand.conditionId, usd: Math.abs(stand.netUsd) });
  }
  const clusters: ConvictionCluster[] = [];
  for (const group of groups.values()) {
    const members: ClusterMember[] = [];
    const markets = new Map<string, { conditionId: string; wallets: string[]; capitalUsd: number }>();
    for (const [wallet, stood] of group.byWallet) {
      if (new Set(stood.map((s) => s.conditionId)).size < rules.minMarkets) continue;
      members.push({
        wallet,
        capitalUsd: stood.reduce((sum, s) => sum + s.usd, 0),
        conditionIds: stood.map((s) => s.conditionId).sort(),
      });
      for (const s of stood) {
        let market = markets.get(s.conditionId);
        if (!market) markets.set(s.conditionId, (market = { conditionId: s.conditionId, wallets: [], capitalUsd: 0 }));
        market.wallets.push(wallet);
        market.capitalUsd += s.usd;
      }
    }
    if (members.length < rules.minWhales) continue;
    members.sort((a, b) => b.capitalUsd - a.capitalUsd || compareText(a.wallet, b.wallet));
    clusters.push({
      eventSlug: group.eventSlug,
      side: group.side,
      members,
      markets: [...markets.values()].sort(
        (a, b) => b.capitalUsd - a.capitalUsd || compareText(a.conditionId, b.conditionId),
      ),
      capitalUsd: members.reduce((sum, m) => sum + m.capitalUsd, 0),
    });
  }
  return clusters.sort(
    (a, b) =>
      b.members.length - a.members.length ||
      b.capitalUsd - a.capitalUsd ||
      compareText(a.eventSlug, b.eventSlug) ||
      compareText(a.side, b.side),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
