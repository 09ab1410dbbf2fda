/**
 * Informed flow end to end (issue 52), funding and insider scores: the real Ingest reads the simulated venue, its funding reader reads the collateral
 * tokens' Transfer logs the simulated chain serves, the Deriver groups wallets, and the API answers. Expectations are
 * the simulation's ground truth (its funding groups and informed bets), which Pelagic never reads.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import type { SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { loadWorldFunding } from "../src/derive/testing/stored-funding.js";
import { FUNDING_HUBS } from "../src/sim/world/index.js";
import { STATS_GENERATION, bumpDeriveState } from "../src/store/derive-state.js";
import { deleteAll } from "../src/store/derived-tables.js";
import { replaceFundingClusters } from "../src/store/funding.js";
import { replaceInsiderScores } from "../src/store/insider-scores.js";
import { FUNDING_TRANSFER_ROWS } from "../src/store/funding-layout.js";
import { storeBackends } from "./support/backends.js";
import { openSimApp, type SimApp } from "./support/sim-app.js";

let venue: SimVenue;

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 5 } });
}, 60_000);
afterAll(closeVenues);

const address = (w: number) => venue.world.wallets[w]!.proxyWallet;

/** Pairs of wallets put together: precision and recall of `found` against `truth`, over the wallets both may hold. */
function pairwise(found: readonly string[][], truth: readonly string[][]) {
  const pairs = (groups: readonly string[][]) => {
    const out = new Set<string>();
    for (const g of groups) {
      const sorted = [...g].sort();
      for (let i = 0; i < sorted.length; i++)
        for (let j = i + 1; j < sorted.length; j++) out.add(`${sorted[i]}|${sorted[j]}`);
    }
    return out;
  };
  const [f, t] = [pairs(found), pairs(truth)];
  const both = [...f].filter((p) => t.has(p)).length;
  return { precision: f.size ? both / f.size : 1, recall: t.size ? both / t.size : 1, truthPairs: t.size };
}

describe.each(storeBackends)("funding paths and clusters on $kind", (backend) => {
  let app: SimApp;
  let key = "";
  const get = async (url: string) => {
    const response = await app.t.app.inject({ url, headers: key ? { "x-api-key": key } : {} });
    return { status: response.statusCode, body: response.json() };
  };

  beforeAll(async () => {
    app = await openSimApp(backend, venue, {
      // Kept answers outlive the clock's moves below (the alerts' window is what must retire them, not the keeping's limit).
      env: { RATE_FREE_PER_MINUTE: "100000", WALLET_OVERVIEW_CACHE_SECONDS: String(3 * 365 * 86_400) },
      beforeRefresh: (h) => h.ingest.traceFunding(),
    });
    key = (await createKey(app.h.store.db, { account: "informed", plan: "premium", now: venue.state.now() })).key;
  }, 240_000);
  afterAll(async () => app?.close());

  /** The truth's groups, restricted to the wallets Pelagic saw (those that traded). */
  async function truthGroups() {
    const seen = new Set(
      (await app.h.store.db.selectFrom("wallets").select("address").execute()).map((r) => r.address),
    );
    return venue.world.funding.groups
      .map((g) => ({ ...g, wallets: [...new Set(g.members.map(address).filter((a) => seen.has(a)))] }))
      .filter((g) => g.wallets.length > 1);
  }

  it("recovers the planted funding groups (pairwise precision and recall at least 0.9)", async () => {
    const list = await get("/api/v2/funding/clusters?limit=500");
    expect(list.status).toBe(200);
    const found: string[][] = [];
    for (const c of list.body.clusters) {
      const detail = await get(`/api/v2/funding/cluster/${c.cluster_id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.size).toBe(c.size);
      found.push(detail.body.members.map((m: { wallet: string }) => m.wallet));
    }
    const groups = await truthGroups();
    const score = pairwise(
      found,
      groups.map((g) => g.wallets),
    );
    expect(score.truthPairs).toBeGreaterThan(5);
    expect(score.precision).toBeGreaterThanOrEqual(0.9);
    expect(score.recall).toBeGreaterThanOrEqual(0.9);
    // Biggest first.
    const sizes = list.body.clusters.map((c: { size: number }) => c.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it("names an insider group's funder as its cluster, with the members' bets combined on the market they backed", async () => {
    const insiders = (await truthGroups()).filter((g) => g.kind === "insider");
    expect(insiders.length).toBeGreaterThan(0);
    for (const group of insiders) {
      const { status, body } = await get(`/api/v2/funding/cluster/${group.funder}`);
      expect(status).toBe(200);
      expect(body.members.map((m: { wallet: string }) => m.wallet)).toEqual([...group.wallets].sort());
      const market = venue.world.markets[group.market]!;
      const bets = venue.world.informed.bets.filter((b) => group.members.includes(b.wallet));
      const outcome = bets[0]!.outcome === 0 ? "YES" : "NO";
      const combined = body.positions.find(
        (p: { condition_id: string; outcome: string }) =>
          p.condition_id === market.conditionId && p.outcome === outcome,
      );
      expect(combined, `${group.funder} on ${market.conditionId}`).toBeDefined();
      expect(combined.members).toBe(group.wallets.length);
      const spent =
        bets.reduce((s, b) => s + venue.world.informed.spentMicro[venue.world.informed.bets.indexOf(b)]!, 0) / 1e6;
      expect(combined.bought_usd).toBeGreaterThanOrEqual(spent * 0.97);
    }
  });

  it("follows an insider's funding back through its hops to the group's funder", async () => {
    const group = (await truthGroups()).find((g) => g.kind === "insider" && g.paths.some((p) => p.length > 1))!;
    const k = group.members.findIndex((w) => group.paths[group.members.indexOf(w)]!.length > 1);
    const wallet = address(group.members[k]!);
    const truthPath = group.paths[k]!;
    const { status, body } = await get(`/api/v2/wallet/${wallet}/funding`);
    expect(status).toBe(200);
    expect(body.traced).toBe(true);
    expect(body.cluster).toMatchObject({ cluster_id: group.funder, funder_hops: truthPath.length });
    expect(body.paths.some((p: { addresses: string[] }) => truthPath.every((a, i) => p.addresses[i] === a))).toBe(true);
    expect(body.funders.find((f: { address: string }) => f.address === group.funder)).toMatchObject({
      hop: truthPath.length,
      kind: "account",
    });
  });

  it("leaves a fresh wallet funded straight from an exchange out of every cluster, its path ending at the hub", async () => {
    const hubs = new Map(FUNDING_HUBS.map((h) => [h.address, h.name]));
    const decoy = venue.world.informed.bets.find((b) => b.kind === "hub_funded_fresh")!;
    const { body } = await get(`/api/v2/wallet/${address(decoy.wallet)}/funding`);
    expect(body.cluster).toBeNull();
    const hub = body.paths.find((p: { ends: string }) => p.ends === "hub");
    expect(hub.addresses).toHaveLength(1);
    expect(hub.hub_name).toBe(hubs.get(hub.addresses[0]));
    expect(body.funders[0]).toMatchObject({ hop: 1, kind: "hub" });
  });

  it("reads nothing twice: a second pass stores no transfer again", async () => {
    const count = async () =>
      Number(
        (
          await app.h.store.db
            .selectFrom("funding_transfers")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(before).toBeGreaterThan(100);
    await app.h.store.db.updateTable("funding_addresses").set({ traced_to_block: null }).execute();
    await app.h.ingest.traceFunding();
    expect(await count()).toBe(before);
  });

  it("stores what the bench and test worlds store without the reader (src/derive/testing/stored-funding.ts)", async () => {
    const db = app.h.store.db;
    const snapshot = async () => ({
      transfers: await db
        .selectFrom("funding_transfers")
        .selectAll()
        .orderBy("block_number")
        .orderBy("log_index")
        .execute(),
      addresses: await db
        .selectFrom("funding_addresses")
        .select(["address", "hop", "transfers"])
        .orderBy("address")
        .execute(),
      clusters: await db.selectFrom("funding_clusters").selectAll().orderBy("wallet").execute(),
    });
    const read = await snapshot();
    // The transfers are read through a view since migration 0055: its rows are deleted from their table.
    await sql.raw(`delete from ${FUNDING_TRANSFER_ROWS}`).execute(db);
    for (const table of ["funding_addresses", "funding_clusters"] as const) await db.deleteFrom(table).execute();
    await loadWorldFunding(app.h.store, venue.world, app.h.config.funding);
    expect(await snapshot()).toEqual(read);
  });

  it("answers 404 for a funder without a cluster and 422 for a malformed one", async () => {
    expect((await get(`/api/v2/funding/cluster/0x${"1".repeat(40)}`)).status).toBe(404);
    const bad = await get("/api/v2/funding/cluster/0x12");
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["path", "cluster_id"]);
  });

  it("keeps the clusters' page until the Deriver rewrites the clusters or the statistics", async () => {
    const db = app.h.store.db;
    const page = "/api/v2/funding/clusters?limit=3";
    const first = (await get(page)).body;
    const biggest = first.clusters[0];
    const rows = await db.selectFrom("funding_clusters").selectAll().execute();
    const member = rows.find((r) => r.cluster_id === biggest.cluster_id)!.wallet;
    // A write that is not the Deriver's rewrite does not reach the kept page: it is served as kept.
    await db.deleteFrom("funding_clusters").where("cluster_id", "=", biggest.cluster_id).execute();
    expect((await get(page)).body).toEqual(first);
    // The Deriver's rewrite (here without the biggest cluster) retires it.
    await replaceFundingClusters(
      db,
      rows.filter((r) => r.cluster_id !== biggest.cluster_id),
    );
    const without = (await get(page)).body;
    expect(without.total).toBe(first.total - 1);
    expect(without.clusters.map((c: { cluster_id: string }) => c.cluster_id)).not.toContain(biggest.cluster_id);
    await replaceFundingClusters(db, rows);
    expect((await get(page)).body).toEqual(first);
    // So does a rewrite of the statistics (a member's P&L moved, its generation bumped).
    const pnl = (
      await db.selectFrom("wallet_stats").select("total_pnl").where("wallet", "=", member).executeTakeFirstOrThrow()
    ).total_pnl;
    await db
      .updateTable("wallet_stats")
      .set({ total_pnl: pnl + 1000 })
      .where("wallet", "=", member)
      .execute();
    await bumpDeriveState(db, STATS_GENERATION);
    expect((await get(page)).body.clusters[0].total_pnl).toBeCloseTo(biggest.total_pnl + 1000, 2);
    await db.updateTable("wallet_stats").set({ total_pnl: pnl }).where("wallet", "=", member).execute();
    await bumpDeriveState(db, STATS_GENERATION);
    expect((await get(page)).body).toEqual(first);
  });

  /** The planted bets Pelagic's store holds (the wallet traded), by kind, as "wallet|condition" keys. */
  function plantedBets() {
    const byKind = new Map<string, Set<string>>();
    venue.world.informed.bets.forEach((b, i) => {
      if (venue.world.informed.spentMicro[i]! <= 0) return;
      const key = `${address(b.wallet)}|${venue.world.markets[b.market]!.conditionId}`;
      byKind.set(b.kind, (byKind.get(b.kind) ?? new Set()).add(key));
    });
    return byKind;
  }

  it("flags the planted insiders' bets and none of their look-alikes (precision and recall at least 0.9)", async () => {
    const { status, body } = await get("/api/v2/insider-alerts?days=365&limit=500");
    expect(status).toBe(200);
    const flagged = new Set(
      body.alerts.map((a: { wallet: string; condition_id: string }) => `${a.wallet}|${a.condition_id}`),
    );
    const planted = plantedBets();
    const insiders = planted.get("insider")!;
    expect(insiders.size).toBeGreaterThan(3);
    const hits = [...insiders].filter((k) => flagged.has(k)).length;
    expect(hits / insiders.size).toBeGreaterThanOrEqual(0.9);
    expect(hits / flagged.size).toBeGreaterThanOrEqual(0.9);
    for (const decoy of ["late_whale", "hub_funded_fresh", "fresh_loser"])
      expect(
        [...(planted.get(decoy) ?? [])].filter((k) => flagged.has(k)),
        decoy,
      ).toEqual([]);
    // Highest first, each at least the threshold.
    const scores = body.alerts.map((a: { score: number }) => a.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Math.min(...scores)).toBeGreaterThanOrEqual(80);
  });

  it("shows every component with its value and weight, and the score is their weighted sum", async () => {
    const { body } = await get("/api/v2/insider-alerts?days=365&limit=50&min_score=0");
    expect(body.alerts.length).toBeGreaterThan(10);
    for (const alert of body.alerts) {
      const known = alert.components.filter((c: { value: number | null }) => c.value !== null);
      const weights = alert.components.reduce((s: number, c: { weight: number }) => s + c.weight, 0);
      expect(weights).toBeCloseTo(1, 9);
      const sum = known.reduce((s: number, c: { value: number; weight: number }) => s + c.value * c.weight, 0);
      const weight = known.reduce((s: number, c: { weight: number }) => s + c.weight, 0);
      expect(alert.score).toBeCloseTo((100 * sum) / weight, 1);
      expect(alert.confidence).toBeGreaterThan(0);
      expect(alert.confidence).toBeLessThan(1);
    }
  });

  it("puts a market's flagged money on the side its insiders backed", async () => {
    const bet = venue.world.informed.bets.find(
      (b, i) => b.kind === "insider" && venue.world.informed.spentMicro[i]! > 0,
    )!;
    const market = venue.world.markets[bet.market]!;
    const { status, body } = await get(`/api/v2/market/${market.conditionId}/informed-flow`);
    expect(status).toBe(200);
    expect(body.flagged_side).toBe(bet.outcome === 0 ? "YES" : "NO");
    const side = bet.outcome === 0 ? body.yes : body.no;
    const spent = venue.world.informed.bets.reduce(
      (s, b, i) =>
        b.kind === "insider" && b.market === bet.market ? s + venue.world.informed.spentMicro[i]! / 1e6 : s,
      0,
    );
    expect(side.usd).toBeGreaterThanOrEqual(spent * 0.97);
    expect(body.bets.every((b: { score: number }) => b.score >= 80)).toBe(true);
  });

  it("scores a wallet's bets in its own view: an insider over the threshold, a late whale under it", async () => {
    const planted = plantedBets();
    const insider = [...planted.get("insider")!][0]!.split("|")[0]!;
    const whale = [...(planted.get("late_whale") ?? [])][0]?.split("|")[0];
    const mine = await get(`/api/v2/wallet/${insider}/insider`);
    expect(mine.status).toBe(200);
    expect(mine.body.best_score).toBeGreaterThanOrEqual(80);
    expect(mine.body.flagged).toBeGreaterThan(0);
    if (whale) {
      const theirs = await get(`/api/v2/wallet/${whale}/insider`);
      expect(theirs.body.flagged).toBe(0);
    }
  });

  it("pages a wallet's scored bets: the pages together are every bet, in order, with the whole wallet's counts on each", async () => {
    const { body: all } = await get("/api/v2/insider-alerts?days=365&limit=500&min_score=0");
    const bets = new Map<string, number>();
    for (const a of all.alerts as { wallet: string }[]) bets.set(a.wallet, (bets.get(a.wallet) ?? 0) + 1);
    const [wallet, recent] = [...bets].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
    const whole = await get(`/api/v2/wallet/${wallet}/insider?limit=500`);
    const scored = whole.body.total;
    expect(scored).toBeGreaterThanOrEqual(Math.max(recent, 3));
    expect(whole.body).toMatchObject({ count: scored, has_more: false, offset: 0 });
    const key = (b: { condition_id: string; outcome: string }) => `${b.condition_id}|${b.outcome}`;
    const paged: string[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = await get(`/api/v2/wallet/${wallet}/insider?limit=2&offset=${offset}`);
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({
        total: scored,
        flagged: whole.body.flagged,
        best_score: whole.body.best_score,
        offset,
        count: Math.min(2, scored - offset),
        has_more: offset + 2 < scored,
      });
      paged.push(...page.body.bets.map(key));
      if (!page.body.has_more) break;
    }
    expect(paged).toEqual(whole.body.bets.map(key));
    const scores = whole.body.bets.map((b: { score: number }) => b.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(whole.body.flagged).toBe(scores.filter((s: number) => s >= whole.body.min_score).length);
    expect((await get(`/api/v2/wallet/${wallet}/insider?limit=501`)).status).toBe(422);
  });

  it("keeps the insider answers until the scores are rewritten, a market's row changes or a bet leaves the window", async () => {
    const store = app.h.store;
    const alertsPage = "/api/v2/insider-alerts?days=365&limit=5";
    const first = (await get(alertsPage)).body;
    const top = first.alerts[0];
    const walletPage = `/api/v2/wallet/${top.wallet}/insider?limit=500`;
    const flowPage = `/api/v2/market/${top.condition_id}/informed-flow`;
    const [wallet, flow] = [(await get(walletPage)).body, (await get(flowPage)).body];
    const betKey = (b: { wallet: string; condition_id: string; outcome: string }) =>
      `${b.wallet}|${b.condition_id}|${b.outcome}`;
    const rows = await store.db.selectFrom("insider_scores").selectAll().execute();
    // A write that is not the Deriver's rewrite does not reach the kept answers: they are served as kept.
    await store.transaction((tx) => deleteAll(tx, "insider_scores"));
    expect((await get(alertsPage)).body).toEqual(first);
    expect((await get(walletPage)).body).toEqual(wallet);
    expect((await get(flowPage)).body).toEqual(flow);
    // The rewrite retires them: here without the top bet.
    const outcome = (r: { outcome_index: number }) => (Number(r.outcome_index) === 0 ? "YES" : "NO");
    await replaceInsiderScores(
      store,
      rows.filter((r) => betKey({ ...r, outcome: outcome(r) }) !== betKey(top)),
    );
    expect((await get(alertsPage)).body.alerts.map(betKey)).not.toContain(betKey(top));
    expect((await get(walletPage)).body.total).toBe(wallet.total - 1);
    expect((await get(flowPage)).body.bets.map(betKey)).not.toContain(betKey(top));
    await replaceInsiderScores(store, rows);
    expect((await get(alertsPage)).body).toEqual(first);
    expect((await get(walletPage)).body).toEqual(wallet);
    // A market's row written (its title here) reaches every answer that names the market.
    const { question } = await store.db
      .selectFrom("markets")
      .select("question")
      .where("condition_id", "=", top.condition_id)
      .executeTakeFirstOrThrow();
    const retitle = (title: string) =>
      store.db.updateTable("markets").set({ question: title }).where("condition_id", "=", top.condition_id).execute();
    await retitle("Renamed for the test");
    expect((await get(alertsPage)).body.alerts[0].market_title).toBe("Renamed for the test");
    expect((await get(walletPage)).body.bets.find((b: typeof top) => betKey(b) === betKey(top)).market_title).toBe(
      "Renamed for the test",
    );
    expect((await get(flowPage)).body.market_title).toBe("Renamed for the test");
    await retitle(question);
    expect((await get(flowPage)).body).toEqual(flow);
    expect((await get(alertsPage)).body).toEqual(first);
    // The clock alone retires the alerts once the bet whose last fill is oldest leaves their window.
    const oldest = Math.min(...first.alerts.map((a: { last_ts: number }) => a.last_ts));
    const saved = app.t.clock.nowMs();
    app.t.clock.set((oldest + 365 * 86_400 + 1) * 1000);
    try {
      const later = (await get(alertsPage)).body.alerts as { last_ts: number }[];
      expect(later.every((a) => a.last_ts > oldest)).toBe(true);
    } finally {
      app.t.clock.set(saved);
    }
    expect((await get(alertsPage)).body).toEqual(first);
  });

  it("keeps the insider routes Premium", async () => {
    const saved = key;
    key = "";
    try {
      expect((await get("/api/v2/insider-alerts")).status).toBe(401);
    } finally {
      key = saved;
    }
  });
});
