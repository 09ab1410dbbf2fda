/** The world's make-up, for `pelagic sim --stats` and for tests that check the mix is venue-like. */
import { V2_CUTOVER_TS } from "./chain.js";
import { FLAG_TAKER } from "./columns.js";
import { takerFeeMicro } from "./fees.js";
import {
  CATEGORIES,
  MATCH_TYPES,
  INFORMED_KINDS,
  OP_TYPES,
  WALLET_ARCHETYPES,
  type Archetype,
  type InformedKind,
  type Category,
  type MatchType,
  type OpType,
} from "./types.js";
import type { World } from "./world.js";

export interface WorldStats {
  seed: number | string;
  start: number;
  end: number;
  days: number;
  events: number;
  negRiskEvents: number;
  markets: number;
  negRiskMarkets: number;
  /** Share of markets that belong to a NegRisk event. */
  negRiskShare: number;
  territoryMarkets: number;
  marketsByCategory: Record<Category, number>;
  marketsByStatus: { open: number; pending: number; resolved: number };
  resolutions: { YES: number; NO: number; "50-50": number };
  /** Share of markets resolved by the world's end. */
  resolvedShare: number;
  wallets: number;
  archetypes: Record<Archetype, number>;
  washRings: number;
  alignedGroups: number;
  /** The informed layer's bets by kind, and its insider groups (informed.ts). */
  informedBets: Record<InformedKind, number>;
  insiderGroups: number;
  /** Collateral transfers funding the wallets, and the groups sharing a funder that is not a hub (funding.ts). */
  fundingTransfers: number;
  fundingGroups: number;
  matches: number;
  fills: number;
  fillsPerMatch: number;
  fillsByType: Record<MatchType, number>;
  /** Share of fills per match type (MINT about 0.8 on the venue). */
  fillShareByType: Record<MatchType, number>;
  fillShareByArchetype: Record<Archetype, number>;
  v1Fills: number;
  v2Fills: number;
  /** Sum of every fill's usd (both sides of each match). */
  volumeUsd: number;
  feesUsd: number;
  ops: Record<OpType, number>;
}

export function worldStats(world: World): WorldStats {
  const t = world.tables;
  const archetypes = Object.fromEntries(WALLET_ARCHETYPES.map((a) => [a, 0])) as Record<Archetype, number>;
  for (const w of world.wallets) archetypes[w.archetype]++;
  const marketsByCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  const marketsByStatus = { open: 0, pending: 0, resolved: 0 };
  const resolutions = { YES: 0, NO: 0, "50-50": 0 };
  for (const m of world.markets) {
    marketsByCategory[m.category]++;
    marketsByStatus[m.status]++;
    if (m.resolution) resolutions[m.resolution]++;
  }
  const fillsByType = { COMPLEMENTARY: 0, MINT: 0, MERGE: 0 } as Record<MatchType, number>;
  const typeCounts = [0, 0, 0];
  let v1Fills = 0;
  let volume = 0;
  let fees = 0;
  for (let j = 0; j < t.matchCount; j++) {
    const [from, to] = world.fillsOfMatch(j);
    typeCounts[t.matchType[j]!]! += to - from;
    if (t.matchTs[j]! < V2_CUTOVER_TS) v1Fills += to - from;
    for (let f = from; f < to; f++) volume += (t.fillSize[f]! * world.fillPrice(f)) / 1e6;
    const rate = world.markets[t.matchMarket[j]!]!.fee.rateBps;
    if (rate && t.fillFlags[to - 1]! & FLAG_TAKER) fees += takerFeeMicro(t.fillSize[to - 1]!, t.matchPrice[j]!, rate);
  }
  MATCH_TYPES.forEach((name, code) => (fillsByType[name] = typeCounts[code]!));
  const byArchetype = new Float64Array(WALLET_ARCHETYPES.length);
  for (let f = 0; f < t.fillCount; f++) byArchetype[world.population.archetypeCode[t.fillWallet[f]!]!]!++;
  const ops = Object.fromEntries(OP_TYPES.map((o) => [o, 0])) as Record<OpType, number>;
  for (let i = 0; i < t.opCount; i++) ops[OP_TYPES[t.opType[i]!]!]++;
  const fills = t.fillCount;
  const share = (n: number) => (fills ? n / fills : 0);
  const negRiskMarkets = world.markets.filter((m) => m.negRisk).length;
  return {
    seed: world.options.seed,
    start: world.start,
    end: world.end,
    days: world.options.days,
    events: world.events.length,
    negRiskEvents: world.events.filter((e) => e.negRisk).length,
    markets: world.markets.length,
    negRiskMarkets,
    negRiskShare: negRiskMarkets / Math.max(1, world.markets.length),
    territoryMarkets: world.markets.filter((m) => m.territory).length,
    marketsByCategory,
    marketsByStatus,
    resolutions,
    resolvedShare: marketsByStatus.resolved / Math.max(1, world.markets.length),
    wallets: world.wallets.length,
    archetypes,
    washRings: world.population.washRings.length,
    alignedGroups: world.population.alignedGroups.length,
    informedBets: Object.fromEntries(
      INFORMED_KINDS.map((k) => [k, world.informed.bets.filter((b) => b.kind === k).length]),
    ) as Record<InformedKind, number>,
    insiderGroups: world.funding.groups.filter((g) => g.kind === "insider").length,
    fundingTransfers: world.funding.count,
    fundingGroups: world.funding.groups.length,
    matches: t.matchCount,
    fills,
    fillsPerMatch: t.matchCount ? fills / t.matchCount : 0,
    fillsByType,
    fillShareByType: {
      COMPLEMENTARY: share(fillsByType.COMPLEMENTARY),
      MINT: share(fillsByType.MINT),
      MERGE: share(fillsByType.MERGE),
    },
    fillShareByArchetype: Object.fromEntries(WALLET_ARCHETYPES.map((a, i) => [a, share(byArchetype[i]!)])) as Record<
      Archetype,
      number
    >,
    v1Fills,
    v2Fills: fills - v1Fills,
    volumeUsd: volume / 1e6,
    feesUsd: fees / 1e6,
    ops,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const int = (x: number) => Math.round(x).toLocaleString("en-US");
const date = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);

/** Human-readable make-up, one fact per line. */
export function formatWorldStats(s: WorldStats): string {
  const lines = [
    `world seed ${s.seed}: ${date(s.start)} .. ${date(s.end)} (${s.days} days)`,
    `events   ${int(s.events)} (${int(s.negRiskEvents)} NegRisk)`,
    `markets  ${int(s.markets)}: NegRisk ${pct(s.negRiskShare)}, territory ${s.territoryMarkets}`,
    `         ${CATEGORIES.map((c) => `${c} ${s.marketsByCategory[c]}`).join(", ")}`,
    `         open ${s.marketsByStatus.open}, closed-pending ${s.marketsByStatus.pending}, resolved ${s.marketsByStatus.resolved} (${pct(s.resolvedShare)}: YES ${s.resolutions.YES}, NO ${s.resolutions.NO}, 50-50 ${s.resolutions["50-50"]})`,
    `wallets  ${int(s.wallets)} (${s.washRings} wash rings, ${s.alignedGroups} aligned-whale groups)`,
    ...WALLET_ARCHETYPES.map(
      (a) =>
        `         ${a.padEnd(18)} ${String(s.archetypes[a]).padStart(6)} wallets  ${pct(s.fillShareByArchetype[a]).padStart(6)} of fills`,
    ),
    `informed ${INFORMED_KINDS.map((k) => `${k} ${s.informedBets[k]}`).join(", ")} (${s.insiderGroups} insider groups)`,
    `funding  ${int(s.fundingTransfers)} collateral transfers, ${s.fundingGroups} groups sharing a funder`,
    `fills    ${int(s.fills)} in ${int(s.matches)} matches (${s.fillsPerMatch.toFixed(2)} fills/match); V1 ${int(s.v1Fills)}, V2 ${int(s.v2Fills)}`,
    `         MINT ${pct(s.fillShareByType.MINT)}, MERGE ${pct(s.fillShareByType.MERGE)}, COMPLEMENTARY ${pct(s.fillShareByType.COMPLEMENTARY)}`,
    `volume   ${int(s.volumeUsd)} USD, taker fees ${int(s.feesUsd)} USD`,
    `ops      ${OP_TYPES.map((o) => `${o} ${int(s.ops[o])}`).join(", ")}`,
  ];
  return lines.join("\n");
}
