/**
 * The venue as it is today, end to end on every store backend: the real Ingest reads a simulated venue whose V2
 * operations go through the collateral adapters and whose NegRisk ones through the NegRiskAdapter (as the contracts
 * emit them, docs/VENUE.md), the Deriver follows, and the API answers. A wallet's split and later merge through an
 * adapter are its SPLIT and MERGE on `/activity`, a NegRisk redemption is the redeeming wallet's, and no protocol
 * contract is a wallet anywhere. Then an exchange the reader does not know (a next generation): its fills are missed
 * until VENUE_EXTRA_EXCHANGES names it, and are then ingested exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { openSimIngest } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import { truthOperations, type SimVenue, type TruthOperation } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { V2_CUTOVER_TS } from "../src/sim/world/index.js";
import { storeChecksum } from "../src/store/checksum.js";
import { CONTRACTS, BUILT_IN_CONTRACTS, useExtraExchanges } from "../src/venue/contracts.js";
import type { TestApp } from "./support/app.js";
import { openSimApp, type SimApp } from "./support/sim-app.js";
import { storeBackends } from "./support/backends.js";

const NEXT_EXCHANGE = "0xe4444400000000000000000000000000000000aa";
const PROTOCOL = BUILT_IN_CONTRACTS.map((c) => c.address);
let venue: SimVenue;

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 2 } });
}, 60_000);
afterAll(closeVenues);

/** A wallet that split and later merged in one binary market after the cutover (through an adapter). */
function splitThenMerge(ops: readonly TruthOperation[]): {
  wallet: string;
  split: TruthOperation;
  merge: TruthOperation;
} {
  const negRisk = new Set(venue.world.markets.filter((m) => m.negRisk).map((m) => m.conditionId));
  for (const split of ops) {
    if (split.type !== "SPLIT" || split.ts < V2_CUTOVER_TS || negRisk.has(split.conditionId)) continue;
    const merge = ops.find(
      (o) => o.type === "MERGE" && o.wallet === split.wallet && o.conditionId === split.conditionId && o.ts > split.ts,
    );
    if (merge) return { wallet: split.wallet, split, merge };
  }
  throw new Error("the world has no wallet that split and later merged after the cutover");
}

describe.each(storeBackends)("operations through the venue's adapters, on $kind", (backend) => {
  let app: SimApp;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    app = await openSimApp(backend, venue, {
      env: { RATE_FREE_PER_MINUTE: "100000", RATE_PREMIUM_PER_MINUTE: "100000" },
    });
    t = app.t;
    key = (await createKey(t.store.db, { account: "adapters", plan: "premium", now: t.clock.now() })).key;
  }, 240_000);
  afterAll(async () => app?.close());

  const activity = async (wallet: string, query = "") => {
    const response = await t.app.inject({
      url: `/api/v2/wallet/${wallet}/activity?limit=500${query}`,
      headers: { "x-api-key": key },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().activity as Array<{ type: string; transaction_hash: string; size: number }>;
  };

  it("lists a wallet's split and later merge through a collateral adapter as its SPLIT and MERGE", async () => {
    const { wallet, split, merge } = splitThenMerge([...truthOperations(venue.world)]);
    const rows = await activity(wallet);
    expect(rows).toContainEqual(expect.objectContaining({ type: "SPLIT", transaction_hash: split.txHash }));
    expect(rows).toContainEqual(expect.objectContaining({ type: "MERGE", transaction_hash: merge.txHash }));
    const splits = await activity(wallet, "&type=SPLIT");
    expect(splits.every((r) => r.type === "SPLIT")).toBe(true);
    expect(splits.find((r) => r.transaction_hash === split.txHash)!.size).toBe(split.amountMicro / 1_000_000);
  });

  it("gives a NegRisk redemption to the wallet that redeemed, in V1 and through the V2 adapter", async () => {
    const negRisk = new Set(venue.world.markets.filter((m) => m.negRisk).map((m) => m.conditionId));
    const redemptions = [...truthOperations(venue.world)].filter(
      (o) => o.type === "REDEEM" && negRisk.has(o.conditionId),
    );
    for (const era of [(o: TruthOperation) => o.ts < V2_CUTOVER_TS, (o: TruthOperation) => o.ts >= V2_CUTOVER_TS]) {
      const redemption = redemptions.find(era);
      expect(redemption).toBeDefined();
      expect(await activity(redemption!.wallet, "&type=REDEEM")).toContainEqual(
        expect.objectContaining({ type: "REDEEM", transaction_hash: redemption!.txHash }),
      );
    }
  });

  it("names no protocol contract as a wallet: not in fills, activity, wallets, leaderboards or search", async () => {
    const db = t.store.db;
    const inTable = async (table: "fills" | "wallet_activity" | "wallets", column: "wallet" | "address") =>
      (await db.selectFrom(table).select(column).where(column, "in", PROTOCOL).execute()).length;
    expect(await inTable("fills", "wallet")).toBe(0);
    expect(await inTable("wallet_activity", "wallet")).toBe(0);
    expect(await inTable("wallets", "address")).toBe(0);
    const board = (await t.app.inject("/api/v2/whales/leaderboard?limit=100&min_markets=0&filter=all")).json();
    expect(board.whales.length).toBeGreaterThan(0);
    expect(board.whales.map((w: { wallet: string }) => w.wallet).filter((w: string) => PROTOCOL.includes(w))).toEqual(
      [],
    );
    for (const adapter of [CONTRACTS.ctfCollateralAdapter, CONTRACTS.negRiskCtfCollateralAdapter2]) {
      expect((await t.app.inject(`/api/v2/wallet/${adapter.toLowerCase()}`)).statusCode).toBe(404);
      const search = (await t.app.inject(`/api/v2/wallet-search?q=${adapter.slice(2, 10)}`)).json();
      expect(JSON.stringify(search).toLowerCase()).not.toContain(adapter.toLowerCase());
    }
  });
});

describe.each(storeBackends)("an exchange the reader does not know yet, on $kind", (backend) => {
  afterAll(() => useExtraExchanges([]));

  it("misses its fills until VENUE_EXTRA_EXCHANGES names it, then stores exactly the ground truth", async () => {
    // The venue's binary V2 exchange emits from an address no release knows: a next generation's.
    const moved = await smallVenue({
      world: venue.world,
      rpc: { exchangeAddresses: { [CONTRACTS.ctfExchangeV2.toLowerCase()]: NEXT_EXCHANGE } },
    });
    const truth = truthChecksum(venue.world);
    const blind = await openSimIngest(backend, moved);
    try {
      await blind.ingest.runUntilCaughtUp();
      expect((await storeChecksum(blind.store.db)).fills.count).toBeLessThan(truth.fills.count);
    } finally {
      await blind.dispose();
    }
    const told = await openSimIngest(backend, moved, { env: { VENUE_EXTRA_EXCHANGES: `${NEXT_EXCHANGE}:v2` } });
    try {
      useExtraExchanges(told.config.venue.extraExchanges);
      await told.ingest.runUntilCaughtUp();
      expect(await storeChecksum(told.store.db)).toEqual(truth);
    } finally {
      await told.dispose();
    }
  }, 120_000);
});
