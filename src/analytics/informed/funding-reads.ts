/**
 * Funding reads (issue 52): a wallet's funders and paths, its funding cluster, a cluster's members with their
 * combined positions, and the clusters by size. The rules are the ledger's (src/ledger/funding-graph.ts); the
 * transfers are the funding reader's (src/ingest/funding-sync.ts), the clusters the Deriver's
 * (src/derive/funding-clusters.ts).
 */
import { sql } from "kysely";
import type { Config } from "../../config/index.js";
import { edgesInto, fundingPaths, hubTest, type FundingEdge } from "../../ledger/index.js";
import type { Store } from "../../store/database.js";
import { FUNDING_GENERATION, STATS_GENERATION, readDeriveStates } from "../../store/derive-state.js";
import { fundingEdgesInto, recipientCounts } from "../../store/funding.js";
import { chunks } from "../../store/raw-sql.js";
import { fundingHubs, type FundingHub } from "../../venue/index.js";
import { MICRO } from "../../venue/units.js";
import { loadNames } from "../wallet/display-names.js";
import { payoutOf } from "../wallet/wallet-positions.js";

export type FundingSettings = Pick<Config["funding"], "hops" | "extraHubs" | "hubFanout">;
export type FunderKind = "hub" | "busy_account" | "wallet" | "account";

export interface FunderRow {
  address: string;
  /** Transfers between it and the wallet: 1 for a direct funder. */
  hop: number;
  /** The address it funded on the way to the wallet (the wallet itself at hop 1). */
  funded: string;
  kind: FunderKind;
  hub_name: string | null;
  usd: number;
  transfers: number;
  first_ts: number;
}

export class FundingReads {
  private readonly hubs: ReadonlyMap<string, FundingHub>;

  constructor(
    private readonly store: Store,
    private readonly settings: FundingSettings,
  ) {
    this.hubs = fundingHubs(settings.extraHubs);
  }

  /** Accounts among `addresses` that funded FUNDING_HUB_FANOUT traced addresses or more. */
  private async busy(addresses: readonly string[]): Promise<Set<string>> {
    const counts = await recipientCounts(
      this.store,
      [...new Set(addresses)].filter((a) => !this.hubs.has(a)),
    );
    return new Set([...counts].filter(([, n]) => n >= this.settings.hubFanout).map(([sender]) => sender));
  }

  /** A wallet's funding: whether it was read, its funders hop by hop, its paths back to a hub, and its cluster. */
  async wallet(address: string) {
    const db = this.store.db;
    const traced = await db
      .selectFrom("funding_addresses")
      .select(["hop", "traced_to_block"])
      .where("address", "=", address)
      .executeTakeFirst();
    const read: FundingEdge[] = [];
    const busy = new Set<string>();
    const funders: FunderRow[] = [];
    const seen = new Set([address]);
    let frontier = [address];
    for (let hop = 1; hop <= this.settings.hops && frontier.length > 0; hop++) {
      const edges = await fundingEdgesInto(this.store, frontier);
      for (const b of await this.busy(edges.map((e) => e.from))) busy.add(b);
      const isHub = hubTest(this.hubs, busy);
      const next: string[] = [];
      for (const e of edges.sort((a, b) => b.usd - a.usd || (a.from < b.from ? -1 : 1))) {
        read.push(e);
        if (seen.has(e.from)) continue;
        seen.add(e.from);
        funders.push({
          address: e.from,
          hop,
          funded: e.to,
          kind: this.hubs.has(e.from) ? "hub" : busy.has(e.from) ? "busy_account" : "account",
          hub_name: this.hubs.get(e.from)?.name ?? null,
          usd: e.usd,
          transfers: e.transfers,
          first_ts: e.firstTs,
        });
        if (!isHub(e.from)) next.push(e.from);
      }
      frontier = next;
    }
    const wallets = await this.knownWallets(funders.map((f) => f.address));
    for (const f of funders) if (f.kind === "account" && wallets.has(f.address)) f.kind = "wallet";
    const isHub = hubTest(this.hubs, busy);
    const into = edgesInto(read);
    const paths = fundingPaths(address, (a) => into.get(a) ?? [], isHub, this.settings.hops).map((p) => ({
      addresses: p.addresses,
      ends: p.ends,
      hub_name: p.ends === "hub" ? (this.hubs.get(p.addresses.at(-1)!)?.name ?? null) : null,
      usd: p.usd,
    }));
    return {
      wallet: address,
      traced: traced?.traced_to_block != null && Number(traced.hop) === 0,
      traced_to_block: traced?.traced_to_block == null ? null : Number(traced.traced_to_block),
      hop_limit: this.settings.hops,
      funded_usd: funders.filter((f) => f.hop === 1).reduce((s, f) => s + f.usd, 0),
      first_funded_at: funders
        .filter((f) => f.hop === 1)
        .reduce<number | null>((m, f) => (m === null || f.first_ts < m ? f.first_ts : m), null),
      funders,
      paths,
      cluster: await this.clusterOf(address),
    };
  }

  private async knownWallets(addresses: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks([...new Set(addresses)])) {
      const rows = await this.store.db.selectFrom("wallets").select("address").where("address", "in", part).execute();
      for (const r of rows) found.add(r.address);
    }
    return found;
  }

  private async clusterOf(wallet: string) {
    const row = await this.store.db
      .selectFrom("funding_clusters")
      .select(["cluster_id", "funder_hops"])
      .where("wallet", "=", wallet)
      .executeTakeFirst();
    if (!row) return null;
    const size = await this.store.db
      .selectFrom("funding_clusters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("cluster_id", "=", row.cluster_id)
      .executeTakeFirstOrThrow();
    return {
      cluster_id: row.cluster_id,
      funder: row.cluster_id,
      funder_hops: row.funder_hops == null ? null : Number(row.funder_hops),
      size: Number(size.n),
    };
  }

  /** A cluster's members (funding, statistics) and their positions combined per market and outcome; null if none. */
  async cluster(clusterId: string, positionsLimit: number) {
    const db = this.store.db;
    const rows = await db
      .selectFrom("funding_clusters as c")
      .leftJoin("wallet_stats as s", "s.wallet", "c.wallet")
      .select(["c.wallet", "c.funder_hops", "s.total_pnl", "s.total_volume", "s.total_trades", "s.is_smart"])
      .where("c.cluster_id", "=", clusterId)
      .orderBy("c.wallet")
      .execute();
    if (rows.length === 0) return null;
    const members = rows.map((r) => r.wallet);
    const [names, funding] = await Promise.all([loadNames(this.store, members), fundingEdgesInto(this.store, members)]);
    const fundedBy = new Map<string, { usd: number; first: number }>();
    for (const e of funding) {
      const f = fundedBy.get(e.to) ?? { usd: 0, first: e.firstTs };
      fundedBy.set(e.to, { usd: f.usd + e.usd, first: Math.min(f.first, e.firstTs) });
    }
    const positions = await this.combinedPositions(members, positionsLimit);
    return {
      cluster_id: clusterId,
      funder: clusterId,
      funder_kind: members.includes(clusterId) ? ("wallet" as const) : ("account" as const),
      size: members.length,
      funded_usd: [...fundedBy.values()].reduce((s, f) => s + f.usd, 0),
      total_pnl: rows.reduce((s, r) => s + Number(r.total_pnl ?? 0), 0),
      total_volume: rows.reduce((s, r) => s + Number(r.total_volume ?? 0), 0),
      members: rows.map((r) => ({
        wallet: r.wallet,
        name: names.get(r.wallet) ?? null,
        funder_hops: r.funder_hops == null ? null : Number(r.funder_hops),
        funded_usd: fundedBy.get(r.wallet)?.usd ?? 0,
        first_funded_at: fundedBy.get(r.wallet)?.first ?? null,
        total_pnl: r.total_pnl == null ? null : Number(r.total_pnl),
        total_volume: r.total_volume == null ? null : Number(r.total_volume),
        total_trades: r.total_trades == null ? 0 : Number(r.total_trades),
        is_smart: Number(r.is_smart ?? 0) === 1,
      })),
      positions,
    };
  }

  /** The members' positions summed per market and outcome, the most bought first. */
  private async combinedPositions(members: readonly string[], limit: number) {
    const rows = await this.store.db
      .selectFrom("positions as p")
      .leftJoin("markets as m", "m.condition_id", "p.condition_id")
      .select([
        "p.condition_id",
        "p.outcome_index",
        "m.id as market_id",
        "m.question",
        "m.slug",
        "m.price_yes",
        "m.price_no",
        "m.resolution",
        sql<number>`count(*)`.as("members"),
        sql<number>`sum(p.total_bought * p.avg_price)`.as("bought"),
        sql<number>`sum(case when p.status = 'open' then p.shares else 0 end)`.as("open_shares"),
        sql<number>`sum(p.realized_pnl)`.as("realized"),
        sql<number>`min(p.first_ts)`.as("first_ts"),
        sql<number>`max(p.last_ts)`.as("last_ts"),
      ])
      .where("p.wallet", "in", members)
      .groupBy([
        "p.condition_id",
        "p.outcome_index",
        "m.id",
        "m.question",
        "m.slug",
        "m.price_yes",
        "m.price_no",
        "m.resolution",
      ])
      .orderBy(sql`sum(p.total_bought * p.avg_price)`, "desc")
      .orderBy("p.condition_id")
      .orderBy("p.outcome_index")
      .limit(limit)
      .execute();
    return rows.map((r) => {
      const outcome = Number(r.outcome_index);
      const price = r.resolution ? payoutOf(r.resolution, outcome) : outcome === 0 ? r.price_yes : r.price_no;
      const openShares = Number(r.open_shares) / MICRO;
      return {
        condition_id: r.condition_id,
        market_id: r.market_id ?? null,
        market_title: r.question ?? null,
        slug: r.slug ?? null,
        outcome: outcome === 0 ? ("YES" as const) : ("NO" as const),
        members: Number(r.members),
        bought_usd: Number(r.bought) / MICRO,
        open_shares: openShares,
        current_price: price ?? null,
        open_value_usd: price == null ? null : openShares * price,
        realized_pnl: Number(r.realized) / MICRO,
        first_ts: Number(r.first_ts),
        last_ts: Number(r.last_ts),
      };
    });
  }

  /**
   * What the clusters' page is computed from: the clusters (rewritten whole, bumping `funding_generation`) and the
   * members' statistics (`stats_generation`). One read of two rows.
   */
  async clustersStamp(): Promise<string> {
    return (await readDeriveStates(this.store.db, [FUNDING_GENERATION, STATS_GENERATION])).join(":");
  }

  /** Clusters of at least `minSize` wallets, biggest first, a page at a time. */
  async clusters(page: { limit: number; offset: number; minSize: number }) {
    const db = this.store.db;
    const rows = await db
      .selectFrom("funding_clusters as c")
      .leftJoin("wallet_stats as s", "s.wallet", "c.wallet")
      .select([
        "c.cluster_id",
        sql<number>`count(*)`.as("size"),
        sql<number>`coalesce(sum(s.total_pnl), 0)`.as("total_pnl"),
        sql<number>`coalesce(sum(s.total_volume), 0)`.as("total_volume"),
      ])
      .groupBy("c.cluster_id")
      .having(sql<number>`count(*)`, ">=", page.minSize)
      .orderBy(sql`count(*)`, "desc")
      .orderBy("c.cluster_id")
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const total = await db
      .selectFrom(
        db
          .selectFrom("funding_clusters")
          .select("cluster_id")
          .groupBy("cluster_id")
          .having(sql<number>`count(*)`, ">=", page.minSize)
          .as("c"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return {
      total: Number(total.n),
      has_more: rows.length > page.limit,
      clusters: rows.slice(0, page.limit).map((r) => ({
        cluster_id: r.cluster_id,
        funder: r.cluster_id,
        size: Number(r.size),
        total_pnl: Number(r.total_pnl),
        total_volume: Number(r.total_volume),
      })),
    };
  }
}
