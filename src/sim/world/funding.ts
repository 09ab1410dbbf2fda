/**
 * Funding: the collateral that reaches the world's wallets, as transfers the simulated chain serves as the
 * collateral tokens' ERC-20 `Transfer` logs (USDC.e before the V2 cutover, pUSD after; src/sim/servers/funding-logs.ts).
 *
 * Every wallet is funded. An established wallet gets its first deposit when it was created (before the world's
 * window) and a few top-ups during it, mostly straight from one of a handful of hubs (exchange hot wallets, the
 * bridge that mints bridged USDC.e), some through a personal account a hub funded first, a few from an owner's
 * account shared with the owner's other wallets (every wash ring is one owner). The informed layer (informed.ts)
 * funds its fresh wallets through funders and hop accounts of their own. A hub ends a funding path; an account
 * that funds several wallets within a few hops and is not a hub makes them a funding group (`FundingGroup`).
 *
 * Transfers are planned during generation and placed on the chain once the trading history is known: each is a
 * transaction of one log, after the transactions the history put in its block.
 */
import { CONTRACTS } from "../../venue/contracts.js";
import { alignUp, blockAt, collateralAddress, exchangeVersion, matchLogCount, opLogLayout } from "./chain.js";
import type { TradeTables } from "./columns.js";
import { ID_DOMAIN, address } from "./ids.js";
import { lowerBound } from "./indexes.js";
import { ARCHETYPE_CODE, type Population } from "./population.js";
import { randomInstant } from "./timeline.js";
import type { Rng } from "./random.js";
import { MATCH_TYPES, OP_TYPES, type ResolvedWorldOptions, type WorldMarket } from "./types.js";

const HOUR = 3_600;
const DAY = 86_400;

export interface FundingHub {
  readonly name: string;
  readonly kind: "exchange" | "bridge";
  /** Lower case. */
  readonly address: string;
  /** Share of the established wallets it funds. */
  readonly weight: number;
}

/**
 * The sim's hubs: exchange hot wallets as public address labels name them, and the PoS bridge, whose bridged USDC.e
 * (and pUSD) arrive as mints, `Transfer` from the zero address. Pelagic keeps a hub table of its own.
 */
export const FUNDING_HUBS: readonly FundingHub[] = [
  {
    name: "Binance hot wallet (Polygon)",
    kind: "exchange",
    address: "0xe7804c37c13166ff0b37f5ae0bb07a3aebb6e245",
    weight: 0.3,
  },
  {
    name: "Coinbase hot wallet",
    kind: "exchange",
    address: "0x71660c4005ba85c37ccec55d0c4493e66fe775d3",
    weight: 0.22,
  },
  { name: "Binance 14", kind: "exchange", address: "0x28c6c06298d514db089934071355e5743bf21d60", weight: 0.1 },
  { name: "Kraken hot wallet", kind: "exchange", address: "0x0a869d79a7052c7f1b55a8ebabbea3420f0d1e13", weight: 0.1 },
  { name: "OKX hot wallet", kind: "exchange", address: "0x6cc5f688a315f3dc28a7781717a9a798a59fda7b", weight: 0.1 },
  {
    name: "Polygon PoS bridge (mint)",
    kind: "bridge",
    address: "0x0000000000000000000000000000000000000000",
    weight: 0.18,
  },
];

export function pickHub(rng: Rng): FundingHub {
  let u = rng.next();
  for (const hub of FUNDING_HUBS) {
    u -= hub.weight;
    if (u < 0) return hub;
  }
  return FUNDING_HUBS[0]!;
}

export type FundingGroupKind = "insider" | "fresh_loser" | "late_whale" | "shared_owner";

/** Established wallets one owner funds from one account since they were created (the informed layer's late whales). */
export interface OwnedWallets {
  readonly kind: FundingGroupKind;
  readonly members: readonly number[];
  readonly market: number;
}

/** Wallets sharing a funder that is not a hub. */
export interface FundingGroup {
  readonly index: number;
  readonly kind: FundingGroupKind;
  /** The common funder: an account, never a wallet of the world. */
  readonly funder: string;
  readonly members: readonly number[];
  /** Per member, the accounts its funding came through: nearest first, the funder last (hops = length - 1). */
  readonly paths: readonly (readonly string[])[];
  /** The market an informed group bets on; -1 for an owner's wallets. */
  readonly market: number;
}

/** Whole dollars, in micro-units: exchanges and people send round amounts. */
export const dollars = (usd: number): number => Math.max(1, Math.round(usd)) * 1_000_000;

/** Transfers and groups planned during generation; `place` puts them on the chain. */
export class FundingLedger {
  readonly groups: FundingGroup[] = [];
  private readonly ts: number[] = [];
  private readonly from: string[] = [];
  private readonly to: string[] = [];
  private readonly amount: number[] = [];
  private accounts = 0;

  constructor(private readonly key: readonly [number, number]) {}

  /** A new account that is not a wallet of the world: a funder, a hop, someone's own account. */
  account(): string {
    return address(this.key, ID_DOMAIN.fundingAccount, this.accounts++);
  }

  transfer(ts: number, from: string, to: string, amountMicro: number): void {
    this.ts.push(alignUp(ts));
    this.from.push(from);
    this.to.push(to);
    this.amount.push(amountMicro);
  }

  /**
   * Funds `account` from `source` before its own transfers out (`outgoing`): their sum and a margin, `lead`
   * seconds (drawn in the range) before the first of them.
   */
  fundBefore(
    source: string,
    account: string,
    outgoing: readonly { ts: number; amount: number }[],
    lead: [number, number],
    rng: Rng,
  ): { ts: number; amount: number } {
    const first = Math.min(...outgoing.map((o) => o.ts));
    const sum = outgoing.reduce((s, o) => s + o.amount, 0);
    const funded = {
      ts: alignUp(first - rng.between(lead[0], lead[1])),
      amount: dollars((sum / 1e6) * rng.between(1, 1.08)),
    };
    this.transfer(funded.ts, source, account, funded.amount);
    return funded;
  }

  addGroup(group: Omit<FundingGroup, "index">): number {
    this.groups.push({ index: this.groups.length, ...group });
    return this.groups.length - 1;
  }

  /** Every transfer in chain order, each after the transactions the history put in its block. */
  place(tables: TradeTables, markets: readonly WorldMarket[]): FundingTransfers {
    const n = this.ts.length;
    const order = [...Array(n).keys()].sort((a, b) => this.ts[a]! - this.ts[b]! || a - b);
    const out = new FundingTransfers(n, this.groups);
    let block = Number.NaN;
    let nextLog = 0;
    let nextTx = 0;
    order.forEach((k, i) => {
      const ts = this.ts[k]!;
      if (blockAt(ts) !== block) {
        block = blockAt(ts);
        [nextLog, nextTx] = historyEnd(tables, markets, ts);
      }
      out.ts[i] = ts;
      out.from[i] = this.from[k]!;
      out.to[i] = this.to[k]!;
      out.amount[i] = this.amount[k]!;
      out.logIndex[i] = nextLog++;
      out.txIndex[i] = nextTx++;
    });
    return out;
  }
}

/** One past the last log index and transaction index the history used in the block of `ts` (a block instant). */
function historyEnd(t: TradeTables, markets: readonly WorldMarket[], ts: number): [number, number] {
  let log = 0;
  let tx = 0;
  const version = exchangeVersion(ts);
  for (let j = lowerBound(t.matchTs, t.matchCount, ts); j < t.matchCount && t.matchTs[j] === ts; j++) {
    const fills = t.fillEnd(j) - t.matchFirstFill[j]!;
    log = Math.max(log, t.matchLogIndex[j]! + matchLogCount(fills, MATCH_TYPES[t.matchType[j]!]!, version));
    tx = Math.max(tx, t.matchTxIndex[j]! + 1);
  }
  for (let i = lowerBound(t.opTs, t.opCount, ts); i < t.opCount && t.opTs[i] === ts; i++) {
    const m = t.opMarket[i]!;
    const layout = opLogLayout(OP_TYPES[t.opType[i]!]!, version, m >= 0 && markets[m]!.negRisk);
    log = Math.max(log, t.opLogIndex[i]! + layout.count);
    tx = Math.max(tx, t.opTxIndex[i]! + 1);
  }
  return [log, tx];
}

/** The placed transfers, in chain order: columns by transfer index. */
export class FundingTransfers {
  readonly ts: Uint32Array;
  readonly from: string[];
  readonly to: string[];
  /** Collateral, micro-units. */
  readonly amount: Float64Array;
  readonly logIndex: Uint16Array;
  readonly txIndex: Uint16Array;
  private byRecipient?: Map<string, number[]>;

  constructor(
    readonly count: number,
    readonly groups: readonly FundingGroup[],
  ) {
    this.ts = new Uint32Array(count);
    this.from = new Array<string>(count);
    this.to = new Array<string>(count);
    this.amount = new Float64Array(count);
    this.logIndex = new Uint16Array(count);
    this.txIndex = new Uint16Array(count);
  }

  /** The token transfer i moves: USDC.e before the V2 cutover, pUSD after (lower case). */
  token(i: number): string {
    return collateralAddress(exchangeVersion(this.ts[i]!)).toLowerCase();
  }

  /** Transfers with ts in [from, to). */
  between(from: number, to: number): [number, number] {
    return [lowerBound(this.ts, this.count, from), lowerBound(this.ts, this.count, to)];
  }

  /** Transfers into `recipient` (lower case), chronological. */
  into(recipient: string): readonly number[] {
    if (!this.byRecipient) {
      this.byRecipient = new Map();
      for (let i = 0; i < this.count; i++) {
        const list = this.byRecipient.get(this.to[i]!);
        if (list) list.push(i);
        else this.byRecipient.set(this.to[i]!, [i]);
      }
    }
    return this.byRecipient.get(recipient) ?? [];
  }
}

/** Share of established wallets funded through a personal account (hub → account → wallet). */
const PERSONAL_ACCOUNT_SHARE = 0.15;
/** Share of established wallets (beside wash rings) whose owner runs two or three of them from one account. */
const SHARED_OWNER_SHARE = 0.04;
/** Top-ups per established wallet during the window (Poisson mean). */
const TOP_UPS = 1.2;

const RETAIL = ARCHETYPE_CODE.retail;
const WASH = ARCHETYPE_CODE.wash_trader;

/**
 * Funds every established wallet (`fresh[w]` 0): deposits when it was created and top-ups until `lastTs`, from a
 * hub, a personal account, or an owner's account (`owned`, wash rings, and a few owners of two or three wallets).
 */
export function fundEstablishedWallets(
  ledger: FundingLedger,
  o: ResolvedWorldOptions,
  pop: Population,
  fresh: Uint8Array,
  owners: readonly OwnedWallets[],
  lastTs: number,
  rng: Rng,
): void {
  const deposits = (w: number) => {
    const size = pop.sizeMedianUsd[w]!;
    const list = [{ ts: alignUp(pop.wallets[w]!.createdAt), amount: dollars(size * rng.logBetween(5, 40)) }];
    for (let k = rng.poisson(TOP_UPS); k > 0 && lastTs > o.start; k--) {
      const ts = randomInstant(rng, o.start, lastTs);
      if (ts >= 0) list.push({ ts, amount: dollars(size * rng.logBetween(2, 20)) });
    }
    return list;
  };
  const shared = new Set<number>();
  const owned = ({ kind, members, market }: OwnedWallets) => {
    const owner = ledger.account();
    const outgoing = members.flatMap((w) => deposits(w).map((d) => ({ ...d, w })));
    for (const d of outgoing) ledger.transfer(d.ts, owner, pop.wallets[d.w]!.proxyWallet, d.amount);
    ledger.fundBefore(pickHub(rng).address, owner, outgoing, [HOUR, 5 * DAY], rng);
    ledger.addGroup({ kind, funder: owner, members, paths: members.map(() => [owner]), market });
    for (const w of members) shared.add(w);
  };

  for (const group of owners) owned(group);
  for (const ring of pop.washRings) if (ring.length > 1) owned({ kind: "shared_owner", members: ring, market: -1 });
  const established = [...Array(pop.wallets.length).keys()].filter(
    (w) => fresh[w] === 0 && pop.archetypeCode[w] !== WASH && !shared.has(w),
  );
  const sharing = established.filter((w) => pop.archetypeCode[w] === RETAIL && rng.chance(SHARED_OWNER_SHARE));
  for (let i = 0; i + 1 < sharing.length; ) {
    const members = sharing.slice(i, i + (i + 2 < sharing.length && rng.chance(0.4) ? 3 : 2));
    owned({ kind: "shared_owner", members, market: -1 });
    i += members.length;
  }
  for (const w of established) {
    if (shared.has(w)) continue;
    const hub = pickHub(rng).address;
    const wallet = pop.wallets[w]!.proxyWallet;
    const list = deposits(w);
    if (!rng.chance(PERSONAL_ACCOUNT_SHARE)) {
      for (const d of list) ledger.transfer(d.ts, hub, wallet, d.amount);
      continue;
    }
    const own = ledger.account();
    for (const d of list) ledger.transfer(d.ts, own, wallet, d.amount);
    ledger.fundBefore(hub, own, list, [HOUR, 3 * DAY], rng);
  }
}

/** The collateral tokens whose `Transfer` logs the simulated chain serves (lower case). */
export const COLLATERAL_TOKENS: readonly string[] = [CONTRACTS.usdcE.toLowerCase(), CONTRACTS.pUsd.toLowerCase()];
