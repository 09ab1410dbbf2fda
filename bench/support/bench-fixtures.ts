/**
 * What the API bench rotates its requests over, read from the prepared world store: the busiest wallets (most
 * fills) with a market each has traded, the busiest markets (largest volume), words of their slugs (market search),
 * the wallets' names and address prefixes (wallet search), the largest funding clusters, a Premium key, and the world's last fill (the bench's
 * services run with their clock there: support/clocked-service.ts).
 */
import { createKey } from "../../src/accounts/keys.js";
import { openStore } from "../../src/store/database.js";
import { FILL_ENDS } from "../../src/store/fills.js";
import { migrateStore } from "../../src/store/migrate.js";
import { queryRows } from "../../src/store/raw-sql.js";

export interface BenchFixtures {
  /** Busiest first; each with the condition id of its largest position. */
  readonly wallets: ReadonlyArray<{ address: string; name: string | null; conditionId: string }>;
  /** Largest volume first. */
  readonly markets: ReadonlyArray<{ id: string; slug: string; conditionId: string }>;
  /** Funding clusters' ids (their funders' addresses), most members first. */
  readonly clusters: readonly string[];
  readonly premiumKey: string;
  /** The world's last fill, unix seconds. */
  readonly end: number;
}

export async function readFixtures(sqlitePath: string, count: number): Promise<BenchFixtures> {
  const store = await openStore({ kind: "sqlite", sqlitePath });
  try {
    await migrateStore(store);
    const busiest = await store.db
      .selectFrom("wallet_stats as s")
      .leftJoin("wallets as w", "w.address", "s.wallet")
      .select(["s.wallet", "w.name", "w.pseudonym"])
      .orderBy("s.total_trades", "desc")
      .orderBy("s.wallet")
      .limit(count)
      .execute();
    const wallets = [];
    for (const w of busiest) {
      const largest = await store.db
        .selectFrom("positions")
        .select("condition_id")
        .where("wallet", "=", w.wallet)
        .orderBy("total_bought", "desc")
        .limit(1)
        .executeTakeFirst();
      if (largest)
        wallets.push({ address: w.wallet, name: w.name || w.pseudonym || null, conditionId: largest.condition_id });
    }
    const markets = (
      await store.db
        .selectFrom("markets")
        .select(["id", "slug", "condition_id"])
        .orderBy("volume", "desc")
        .orderBy("id")
        .limit(count)
        .execute()
    ).map((m) => ({
      id: m.id,
      slug: m.slug,
      conditionId: m.condition_id,
    }));
    const clusters = (
      await store.db
        .selectFrom("funding_clusters")
        .select("cluster_id")
        .groupBy("cluster_id")
        .orderBy((eb) => eb.fn.countAll(), "desc")
        .orderBy("cluster_id")
        .limit(count)
        .execute()
    ).map((c) => c.cluster_id);
    const [last] = await queryRows<{ end: number }>(store.db, store.kind, `select ${FILL_ENDS.latestTs} as end`);
    const { key } = await createKey(store.db, {
      account: "bench",
      plan: "premium",
      now: Math.floor(Date.now() / 1000),
    });
    return { wallets, markets, clusters, premiumKey: key, end: Number(last?.end) };
  } finally {
    await store.close();
  }
}
