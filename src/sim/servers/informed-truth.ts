/**
 * The informed layer's ground truth (src/sim/world/informed.ts, funding.ts), served over loopback so that a check
 * outside Pelagic can score its informed-flow signals. Pelagic never reads it: test/layout.test.ts fails any file
 * outside src/sim/ and tests that names the path or imports this module. No faults are injected here.
 *
 *   GET /truth/archetypes?offset=0&limit=1000   every wallet in wallet order, a page at a time (limit at most 10000)
 *   GET /truth/funding-groups                   every funding group: kind, funder, market, members and their paths
 *   GET /truth/hubs                             the sim's hubs, which end a funding path
 */
import {
  FUNDING_HUBS,
  INFORMED_KINDS,
  OUTCOME_NAMES,
  type Archetype,
  type FundingGroup,
  type FundingGroupKind,
  type InformedKind,
  type World,
} from "../world/index.js";
import { SimErrorReply, intParam, json, type RouteHandler } from "./http.js";
import type { VenueState } from "./venue-state.js";

/** The paths below the mount, each answered by one function of the world. */
export const TRUTH_PATHS = { archetypes: "/archetypes", fundingGroups: "/funding-groups", hubs: "/hubs" } as const;
const PAGE = { defaultLimit: 1_000, maxLimit: 10_000 };
/** How far a funding path is followed back (Pelagic's hop limit). */
const MAX_HOPS = 3;

export interface TruthInformedBet {
  kind: InformedKind;
  conditionId: string;
  outcome: "Yes" | "No";
  outcomeIndex: 0 | 1;
  side: "BUY";
  /** Whether the backed outcome won (insiders, late whales and hub-funded fresh wallets: always; fresh losers: never). */
  won: boolean;
  /** When trading stopped and when the market resolved (unix seconds). */
  tradingStop: number;
  resolvedAt: number;
  /** When a fresh wallet received the collateral it bet; null for a late whale (funded long before). */
  fundedAt: number | null;
  /** The accounts the wallet's funding came through, nearest first: its group's funder last, or a hub last. */
  funderPath: string[];
  /** What the bet came to: its first and last fill, the collateral spent and shares bought (micro), average price. */
  firstTs: number;
  lastTs: number;
  usdMicro: number;
  sharesMicro: number;
  avgPrice: number;
}

export interface TruthWallet {
  wallet: string;
  archetype: Archetype;
  /** For a decoy, its kind; null for insiders and every other wallet. */
  decoy: Exclude<InformedKind, "insider"> | null;
  /** The funding group (`/truth/funding-groups`) when the wallet shares a funder that is not a hub. */
  fundingGroup: string | null;
  /** An insider's or decoy's bet; null for every other wallet. */
  informed: TruthInformedBet | null;
}

export interface TruthFundingGroup {
  id: string;
  kind: FundingGroupKind;
  funder: string;
  /** The market an informed group bets on; null for an owner's wallets. */
  conditionId: string | null;
  members: { wallet: string; path: string[] }[];
}

const groupId = (g: FundingGroup) => `g${g.index}`;
const hubs = new Set(FUNDING_HUBS.map((h) => h.address));

/** Wallet → its funding group, per world. */
const groupOfWallet = new WeakMap<World, Map<number, FundingGroup>>();
function groupOf(world: World, w: number): FundingGroup | undefined {
  let map = groupOfWallet.get(world);
  if (!map) {
    map = new Map();
    for (const g of world.funding.groups) for (const m of g.members) map.set(m, g);
    groupOfWallet.set(world, map);
  }
  return map.get(w);
}

/** The first funder of `address`, and its first funder, up to a hub or MAX_HOPS accounts. */
function firstFunders(world: World, address: string): string[] {
  const path: string[] = [];
  for (let at = address; path.length < MAX_HOPS; ) {
    const first = world.funding.into(at)[0];
    if (first === undefined) break;
    at = world.funding.from[first]!;
    path.push(at);
    if (hubs.has(at)) break;
  }
  return path;
}

function informedBet(world: World, w: number): TruthInformedBet | null {
  const plan = world.informed;
  const b = plan.betOf(w);
  if (b < 0) return null;
  const bet = plan.bets[b]!;
  const market = world.markets[bet.market]!;
  const group = groupOf(world, w);
  const shares = plan.shares[b]!;
  return {
    kind: bet.kind,
    conditionId: market.conditionId,
    outcome: OUTCOME_NAMES[bet.outcome],
    outcomeIndex: bet.outcome,
    side: "BUY",
    won: market.truth === bet.outcome,
    tradingStop: market.tradingStop,
    resolvedAt: market.resolvedAt!,
    fundedAt: bet.fundedAt >= 0 ? bet.fundedAt : null,
    funderPath: group
      ? [...group.paths[group.members.indexOf(w)]!]
      : firstFunders(world, world.wallets[w]!.proxyWallet),
    firstTs: plan.firstTs[b]!,
    lastTs: plan.lastTs[b]!,
    usdMicro: plan.spentMicro[b]!,
    sharesMicro: shares,
    avgPrice: shares > 0 ? plan.spentMicro[b]! / shares : 0,
  };
}

/** Wallets [offset, offset + limit) of the world, with the truth about each. */
export function truthArchetypes(world: World, offset: number, limit: number): TruthWallet[] {
  return world.wallets.slice(offset, offset + limit).map((wallet) => {
    const informed = informedBet(world, wallet.index);
    const group = groupOf(world, wallet.index);
    return {
      wallet: wallet.proxyWallet,
      archetype: wallet.archetype,
      decoy: informed && informed.kind !== "insider" ? informed.kind : null,
      fundingGroup: group ? groupId(group) : null,
      informed,
    };
  });
}

export function truthFundingGroups(world: World): TruthFundingGroup[] {
  return world.funding.groups.map((g) => ({
    id: groupId(g),
    kind: g.kind,
    funder: g.funder,
    conditionId: g.market >= 0 ? world.markets[g.market]!.conditionId : null,
    members: g.members.map((w, i) => ({ wallet: world.wallets[w]!.proxyWallet, path: [...g.paths[i]!] })),
  }));
}

export function truthHandler(state: VenueState): RouteHandler {
  return (request) => {
    if (request.method !== "GET") throw new SimErrorReply(405, { error: "the ground truth takes GET" });
    const world = state.world;
    switch (request.path) {
      case TRUTH_PATHS.archetypes: {
        const offset = intParam(request.query, "offset", 0, { min: 0 });
        const limit = intParam(request.query, "limit", PAGE.defaultLimit, { min: 1, max: PAGE.maxLimit });
        const total = world.wallets.length;
        return json({
          total,
          offset,
          limit,
          next: offset + limit < total ? offset + limit : null,
          kinds: INFORMED_KINDS,
          wallets: truthArchetypes(world, offset, limit),
        });
      }
      case TRUTH_PATHS.fundingGroups:
        return json({ groups: truthFundingGroups(world) });
      case TRUTH_PATHS.hubs:
        return json({ hubs: FUNDING_HUBS });
      default:
        throw new SimErrorReply(404, { error: "not found" });
    }
  };
}
