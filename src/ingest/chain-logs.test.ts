import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { storeChecksum } from "../store/checksum.js";
import { chainFillKey, deferredFillIndexesPresent } from "../store/fills.js";
import { countHeldRecords } from "../store/unlisted-records.js";
import { VENUE_EVENT_TOPICS, addressesWithRole, isProtocolAddress, type Hex } from "../venue/index.js";
import {
  ADAPTER,
  EXCHANGE_V1,
  EXCHANGE_V2,
  M,
  NEG_RISK_EXCHANGE_V2,
  conversion,
  matchEvents,
  redemption,
  resolution,
  split,
} from "../venue/testing/chain-events.js";
import { gammaMarket } from "../venue/testing/fixtures.js";
import type { CommittedBatch } from "./batch-writer.js";
import { address, hash32, startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { checkpointOf, openIngestHarness, type IngestHarness } from "./testing/harness.js";
import { SOURCES } from "./sources.js";

const ALICE = address(0xa11ce);
const BOB = address(0xb0b);
const CAROL = address(0xca201);
const condition = (id: number) => `0x${id.toString(16).padStart(64, "0")}` as Hex;
const A = { condition: condition(1), yes: 1001n, no: 2001n };
const B = { condition: condition(2), yes: 1002n, no: 2002n };
const C = { condition: condition(3), yes: 1003n, no: 2003n };
const NEG_RISK_MARKET = hash32(0x7e9);

/** Blocks 100..199 straddle the cutover: V1 exchanges before block 150, V2 from it. */
function buildChain(venue: FakeVenue) {
  const chain = venue.chain;
  chain.head = 200;
  const tx = {
    // MINT on V1: taker BUY YES 100 @0.60 (fee charged in YES: 1.6 shares = 0.96 USD) against a maker BUY NO 100 @0.40.
    mintV1: chain.addTx(
      110,
      matchEvents(
        EXCHANGE_V1,
        { owner: ALICE, side: "BUY", token: A.yes, size: 100n * M, usd: 60n * M, fee: 1_600_000n },
        [{ owner: BOB, side: "BUY", token: A.no, size: 100n * M, usd: 40n * M }],
      ),
    ),
    // COMPLEMENTARY on V1: taker BUY YES against a maker SELL YES.
    complementaryV1: chain.addTx(
      120,
      matchEvents(EXCHANGE_V1, { owner: CAROL, side: "BUY", token: A.yes, size: 10n * M, usd: 7n * M }, [
        { owner: BOB, side: "SELL", token: A.yes, size: 10n * M, usd: 7n * M },
      ]),
    ),
    // MERGE on V2 (after the cutover): taker SELL YES against a maker SELL NO, fee in collateral.
    mergeV2: chain.addTx(
      150,
      matchEvents(
        EXCHANGE_V2,
        { owner: ALICE, side: "SELL", token: A.yes, size: 50n * M, usd: 35n * M, fee: 420_000n },
        [{ owner: BOB, side: "SELL", token: A.no, size: 50n * M, usd: 15n * M }],
      ),
    ),
    // COMPLEMENTARY on the NegRisk V2 exchange with two makers, on a market Gamma lists only by token id.
    twoMakersV2: chain.addTx(
      160,
      matchEvents(NEG_RISK_EXCHANGE_V2, { owner: CAROL, side: "SELL", token: C.no, size: 30n * M, usd: 12n * M }, [
        { owner: ALICE, side: "BUY", token: C.no, size: 20n * M, usd: 8n * M },
        { owner: BOB, side: "BUY", token: C.no, size: 10n * M, usd: 4n * M },
      ]),
    ),
    splits: chain.addTx(170, [
      split(CAROL, A.condition, 5n * M),
      split(EXCHANGE_V2, A.condition, 9n * M),
      split(CAROL, condition(0xdead), 1n * M),
      split(BOB, B.condition, 3n * M, "PositionsMerge"),
    ]),
    resolution: chain.addTx(180, [resolution(A.condition, [1n, 0n])]),
    redemption: chain.addTx(185, [redemption(ALICE, A.condition, 48n * M)]),
    conversion: chain.addTx(190, [conversion(BOB, NEG_RISK_MARKET, 0b101n, 10n * M)]),
  };
  // An OrderFilled from a V2 exchange whose data is cut short: skipped, counted.
  chain.addRawLog(195, {
    address: EXCHANGE_V2,
    topics: [VENUE_EVENT_TOPICS.OrderFilledV2, hash32(1), hash32(2), hash32(3)],
    data: "0x1234",
    transactionHash: hash32(0xbad),
  });
  return tx;
}

describe.each(storeBackends)("chain logs on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;
  let tx: ReturnType<typeof buildChain>;
  const batches: CommittedBatch[] = [];

  beforeEach(async () => {
    venue = await startFakeVenue();
    venue.gamma.events = [{ id: "900", slug: "event-900", title: "Thing" }];
    const inEvent = (id: string) => [{ id, slug: `event-${id}`, title: id }];
    venue.gamma.markets = [
      gammaMarket(1, { events: inEvent("900") }),
      gammaMarket(2, { events: inEvent("900") }),
      gammaMarket(3, { events: inEvent("999"), negRisk: true }),
    ];
    tx = buildChain(venue);
    venue.chain.intercept = (method) => (method === "eth_call" ? { result: hash32(200) } : undefined);
    h = await openIngestHarness(backend, venue, {
      env: { INGEST_START: "100", INGEST_BLOCK_SPAN: "25" },
      maxBlockSpan: 25,
    });
    batches.length = 0;
    h.ingest.onCommitted((b) => void batches.push(b));
  });
  afterEach(async () => {
    await h.dispose();
    await venue.close();
  });

  const fills = () => h.store.db.selectFrom("fills").selectAll().orderBy("block_number").orderBy("log_index").execute();

  it("settles V1 and V2 fills across the cutover, classified MINT, MERGE or COMPLEMENTARY, with fees, roles and counterparties", async () => {
    await h.ingest.runUntilCaughtUp();
    const rows = await fills();
    expect(
      rows.map((f) => [
        f.fill_key,
        f.wallet,
        f.role,
        f.side,
        f.outcome_index,
        f.size,
        f.usd,
        f.fee,
        f.entry_type,
        f.exchange_version,
        f.counterparty,
      ]),
    ).toEqual([
      [chainFillKey(110, 0), BOB, "maker", "BUY", 1, 100_000_000, 40_000_000, 0, "MINT", 1, ALICE],
      [chainFillKey(110, 1), ALICE, "taker", "BUY", 0, 100_000_000, 60_000_000, 960_000, "MINT", 1, BOB],
      [chainFillKey(120, 0), BOB, "maker", "SELL", 0, 10_000_000, 7_000_000, 0, "COMPLEMENTARY", 1, CAROL],
      [chainFillKey(120, 1), CAROL, "taker", "BUY", 0, 10_000_000, 7_000_000, 0, "COMPLEMENTARY", 1, BOB],
      [chainFillKey(150, 0), BOB, "maker", "SELL", 1, 50_000_000, 15_000_000, 0, "MERGE", 2, ALICE],
      [chainFillKey(150, 1), ALICE, "taker", "SELL", 0, 50_000_000, 35_000_000, 420_000, "MERGE", 2, BOB],
      [chainFillKey(160, 0), ALICE, "maker", "BUY", 1, 20_000_000, 8_000_000, 0, "COMPLEMENTARY", 2, CAROL],
      [chainFillKey(160, 1), BOB, "maker", "BUY", 1, 10_000_000, 4_000_000, 0, "COMPLEMENTARY", 2, CAROL],
      [chainFillKey(160, 2), CAROL, "taker", "SELL", 1, 30_000_000, 12_000_000, 0, "COMPLEMENTARY", 2, ALICE],
    ]);
    expect(rows[0]).toMatchObject({
      condition_id: A.condition,
      token_id: "2001",
      price: 0.4,
      block_number: 110,
      ts: 1_770_000_220,
      source: "chain",
    });
    // Market 3 was not in Gamma's event listing: found by token id, and stored with the batch.
    expect(rows[6]?.condition_id).toBe(C.condition);
    expect(
      await h.store.db.selectFrom("markets").select("id").where("condition_id", "=", C.condition).executeTakeFirst(),
    ).toEqual({ id: "3" });
  });

  it("stores conversions, splits, merges and redemptions as wallet activity, and resolutions onto the markets", async () => {
    await h.ingest.runUntilCaughtUp();
    const activity = await h.store.db.selectFrom("wallet_activity").selectAll().orderBy("ts").orderBy("id").execute();
    expect(
      activity.map((a) => [
        a.activity_key,
        a.type,
        a.wallet,
        a.condition_id,
        a.size,
        a.usd,
        a.index_set,
        a.neg_risk_market_id,
        a.fee,
      ]),
    ).toEqual([
      [`chain:${tx.splits}:0`, "SPLIT", CAROL, A.condition, 5_000_000, 5_000_000, null, null, null],
      [`chain:${tx.splits}:3`, "MERGE", BOB, B.condition, 3_000_000, 3_000_000, null, null, null],
      [`chain:${tx.redemption}:0`, "REDEEM", ALICE, A.condition, 48_000_000, 48_000_000, "3", null, null],
      // indexSet 0b101: two NOs given up; fee 2% of 10 shares = 0.2; collateral out (2 - 1) × 9.8.
      [`chain:${tx.conversion}:0`, "CONVERSION", BOB, null, 10_000_000, 9_800_000, "5", NEG_RISK_MARKET, 200_000],
    ]);
    expect(await h.store.db.selectFrom("market_resolutions").selectAll().execute()).toEqual([
      {
        condition_id: A.condition,
        resolution: "YES",
        payout_numerators: '["1","0"]',
        resolved_at: 1_770_000_360,
        block_number: 180,
        tx_hash: tx.resolution,
        log_index: 0,
      },
    ]);
    expect(
      (
        await h.store.db
          .selectFrom("markets")
          .select("resolution")
          .where("condition_id", "=", A.condition)
          .executeTakeFirst()
      )?.resolution,
    ).toBe("YES");
  });

  it("never records an exchange or the adapter as a wallet, and counts the malformed log", async () => {
    await h.ingest.runUntilCaughtUp();
    const wallets = (await h.store.db.selectFrom("wallets").select("address").execute()).map((w) => w.address).sort();
    expect(wallets).toEqual([ALICE, BOB, CAROL].sort());
    for (const address of [...addressesWithRole("exchange"), ADAPTER]) {
      expect(
        await h.store.db
          .selectFrom("fills")
          .select("id")
          .where((eb) => eb.or([eb("wallet", "=", address), eb("counterparty", "=", address)]))
          .execute(),
      ).toEqual([]);
    }
    expect(
      (await h.store.db.selectFrom("wallet_activity").select("wallet").execute()).some((a) =>
        isProtocolAddress(a.wallet),
      ),
    ).toBe(false);
    expect(await checkpointOf(h.store, SOURCES.chain)).toMatchObject({
      cursor: "block:200",
      first_sync_done: 1,
      errors: 1,
      last_error: expect.stringContaining(hash32(0xbad)),
    });
  });

  it("replays blocks idempotently: same store, and listeners receive no row twice", async () => {
    await h.ingest.runUntilCaughtUp();
    const before = await storeChecksum(h.store.db);
    const firstNew = batches.reduce((n, b) => n + b.fills.length + b.activity.length, 0);
    expect(firstNew).toBe(13);
    batches.length = 0;
    await h.store.db
      .updateTable("ingest_checkpoints")
      .set({ cursor: "block:99" })
      .where("source", "=", SOURCES.chain)
      .execute();
    await h.ingest.runUntilCaughtUp();
    expect(await storeChecksum(h.store.db)).toEqual(before);
    expect(before.fills.count).toBe(9);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.fills.length === 0 && b.activity.length === 0 && b.resolutions.length === 0)).toBe(
      true,
    );
  });

  it("gathers a step's chunks into batches of INGEST_BATCH_RECORDS fills and events, each checkpointed at its last chunk's end", async () => {
    // Default (5,000): the one step over blocks 100..200 (chunks of 25 blocks) is one batch.
    await h.ingest.runUntilCaughtUp();
    const whole = await storeChecksum(h.store.db);
    const withRows = () => batches.filter((b) => b.fills.length + b.activity.length + b.resolutions.length > 0);
    expect(withRows().map((b) => b.cursor)).toEqual(["block:200"]);
    await h.dispose();
    h = await openIngestHarness(backend, venue, {
      env: { INGEST_START: "100", INGEST_BLOCK_SPAN: "25", INGEST_BATCH_RECORDS: "3" },
      maxBlockSpan: 25,
    });
    batches.length = 0;
    h.ingest.onCommitted((b) => void batches.push(b));
    await h.ingest.runUntilCaughtUp();
    // Chunks 100-124 (4 fills), 125-149 (none), 150-174 (5 fills, 4 split/merge events), 175-199 (a resolution,
    // a redemption, a conversion), 200: a batch closes once it holds 3 or more; the empty chunk joins the next, the
    // last (nothing in it) closes the step.
    expect(withRows().map((b) => b.cursor)).toEqual(["block:124", "block:174", "block:199"]);
    expect(batches.at(-1)?.cursor).toBe("block:200");
    expect(await storeChecksum(h.store.db)).toEqual(whole);
  });

  it("follows the head INGEST_CONFIRMATIONS blocks behind, and picks up new blocks as they come", async () => {
    await h.dispose();
    h = await openIngestHarness(backend, venue, {
      env: { INGEST_START: "100", INGEST_CONFIRMATIONS: "45" },
      maxBlockSpan: 25,
    });
    await h.ingest.runUntilCaughtUp();
    expect((await checkpointOf(h.store, SOURCES.chain))?.cursor).toBe("block:155");
    expect((await fills()).map((f) => f.block_number)).toEqual([110, 110, 120, 120, 150, 150]);
    venue.chain.head = 300;
    await h.ingest.runUntilCaughtUp();
    expect((await checkpointOf(h.store, SOURCES.chain))?.cursor).toBe("block:255");
    expect(await h.store.db.selectFrom("fills").select("id").execute()).toHaveLength(9);
  });

  it("ends its first full sync at the head it saw when the backfill started, though the head keeps running ahead; then follows", async () => {
    // Every eth_blockNumber finds the head 600 blocks further, more than one step (20 ranges of 25 blocks) covers.
    venue.chain.intercept = (method) => {
      if (method === "eth_blockNumber") venue.chain.head += 600;
      return method === "eth_call" ? { result: hash32(200) } : undefined;
    };
    await h.ingest.runUntilCaughtUp();
    const first = await checkpointOf(h.store, SOURCES.chain);
    expect(first?.first_sync_done).toBe(1);
    // The first step saw the head at 800 and read to 599; the second, seeing 1,400, ran to 800 and ended there (a
    // first sync's last step stops at its goal, so that only the batch reaching it completes the sync).
    expect(first?.cursor).toBe("block:800");
    expect(await h.store.db.selectFrom("fills").select("id").execute()).toHaveLength(9);
    // Following: once the head rests, the next round reaches it.
    venue.chain.intercept = (method) => (method === "eth_call" ? { result: hash32(200) } : undefined);
    await h.ingest.runUntilCaughtUp();
    expect(await checkpointOf(h.store, SOURCES.chain)).toMatchObject({
      cursor: `block:${venue.chain.head}`,
      first_sync_done: 1,
    });
  });

  it("builds the fills' wallet and market indexes and records the fills' wallets when a long first sync reaches the head, in the batch that completes it", async () => {
    const walletRows = () =>
      h.store.db.selectFrom("wallets").select(["address", "first_seen", "last_seen"]).orderBy("address").execute();
    await h.ingest.runUntilCaughtUp();
    const expectedWallets = await walletRows();
    expect(expectedWallets.map((w) => w.address)).toEqual([ALICE, BOB, CAROL].sort());
    await h.dispose();
    h = await openIngestHarness(backend, venue, {
      env: {
        INGEST_START: "100",
        INGEST_BLOCK_SPAN: "25",
        INGEST_DEFER_INDEXES_BLOCKS: "50",
        INGEST_BATCH_RECORDS: "1",
      },
      maxBlockSpan: 25,
    });
    const seen: { firstSyncDone: number | undefined; fills: number; indexes: boolean }[] = [];
    const unrecorded: string[] = [];
    h.ingest.onCommitted(async (batch) => {
      const checkpoint = await checkpointOf(h.store, SOURCES.chain);
      seen.push({
        firstSyncDone: checkpoint?.first_sync_done,
        fills: batch.fills.length,
        indexes: await h.store.transaction(deferredFillIndexesPresent),
      });
      // Each fill's wallet is recorded by the batch that first shows it, not only at the sync's end.
      const recorded = new Set((await walletRows()).map((w) => w.address));
      unrecorded.push(...batch.fills.map((f) => f.wallet).filter((w) => !recorded.has(w)));
    });
    await h.ingest.runUntilCaughtUp();
    // The sync's first commit (its start block) comes before the indexes are dropped; every batch of fills after it.
    const during = seen.filter((s) => s.firstSyncDone !== 1 && s.fills > 0);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((s) => !s.indexes)).toBe(true);
    expect(seen.filter((s) => s.firstSyncDone === 1).every((s) => s.indexes)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ firstSyncDone: 1, indexes: true });
    expect(await fills()).toHaveLength(9);
    expect(unrecorded).toEqual([]);
    expect(await walletRows()).toEqual(expectedWallets);
  });

  it("ends a first sync that deferred the fills indexes at its goal, then follows with the fills' wallets recorded as they come", async () => {
    await h.dispose();
    h = await openIngestHarness(backend, venue, {
      env: {
        INGEST_START: "100",
        INGEST_BLOCK_SPAN: "25",
        INGEST_DEFER_INDEXES_BLOCKS: "50",
        INGEST_BATCH_RECORDS: "3",
      },
      maxBlockSpan: 25,
    });
    batches.length = 0;
    h.ingest.onCommitted((b) => void batches.push(b));
    const withRows = () =>
      batches.filter((b) => b.fills.length + b.activity.length + b.resolutions.length > 0).map((b) => b.cursor);
    await h.ingest.runUntilCaughtUp();
    expect(withRows()).toEqual(["block:124", "block:174", "block:199"]);
    const DAVE = address(0xda7e);
    venue.chain.addTx(
      210,
      matchEvents(EXCHANGE_V2, { owner: DAVE, side: "BUY", token: A.yes, size: 4n * M, usd: 2n * M }, [
        { owner: ALICE, side: "SELL", token: A.yes, size: 2n * M, usd: 1n * M },
        { owner: BOB, side: "SELL", token: A.yes, size: 2n * M, usd: 1n * M },
      ]),
    );
    venue.chain.addTx(
      240,
      matchEvents(EXCHANGE_V2, { owner: DAVE, side: "SELL", token: A.yes, size: 1n * M, usd: 1n * M }, [
        { owner: CAROL, side: "BUY", token: A.yes, size: 1n * M, usd: 1n * M },
      ]),
    );
    venue.chain.addTx(
      255,
      matchEvents(EXCHANGE_V2, { owner: DAVE, side: "SELL", token: A.yes, size: 1n * M, usd: 1n * M }, [
        { owner: CAROL, side: "BUY", token: A.yes, size: 1n * M, usd: 1n * M },
      ]),
    );
    venue.chain.head = 260;
    batches.length = 0;
    await h.ingest.runUntilCaughtUp();
    // Chunks 201-225 (3 fills), 226-250 (2) and 251-260 (2): a batch closes once it holds 3 or more.
    expect(withRows()).toEqual(["block:225", "block:260"]);
    const dave = await h.store.db
      .selectFrom("wallets")
      .select(["first_seen", "last_seen"])
      .where("address", "=", DAVE)
      .executeTakeFirst();
    expect(dave).toEqual({ first_seen: 1_770_000_000 + 2 * 210, last_seen: 1_770_000_000 + 2 * 255 });
  });

  it("keeps the fills indexes through a first sync shorter than INGEST_DEFER_INDEXES_BLOCKS", async () => {
    const seen: boolean[] = [];
    h.ingest.onCommitted(async () => void seen.push(await h.store.transaction(deferredFillIndexesPresent)));
    await h.ingest.runUntilCaughtUp();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every(Boolean)).toBe(true);
  });

  it("resolves INGEST_START given as a date to the first block at or after it", async () => {
    await h.dispose();
    // Block n is at 1,770,000,000 + 2n: 1,770,000,299 falls between blocks 149 and 150.
    const date = new Date(1_770_000_299_000).toISOString().slice(0, 10);
    venue.chain.head = 200;
    const start = (await import("./ingest-start.js")).firstBlockAtOrAfter;
    const client = venue.clients().chain!;
    expect(await start(client, 1_770_000_299, 200)).toBe(150);
    expect(await start(client, 1_770_000_300, 200)).toBe(150);
    expect(await start(client, 1_770_000_000, 200)).toBe(0);
    expect(await start(client, 1_770_009_999, 200)).toBe(201);
    h = await openIngestHarness(backend, venue, { env: { INGEST_START: date }, maxBlockSpan: 25 });
    await h.ingest.runUntilCaughtUp();
    expect((await fills()).length).toBe(9);
    // The store holds the chain's history from that day on (what win_source ledger compares a wallet's first activity with).
    expect((await checkpointOf(h.store, SOURCES.chain))?.history_from).toBe(Date.parse(`${date}T00:00:00Z`) / 1000);
  });

  it("records from when it holds the chain's history: its start block's time", async () => {
    await h.ingest.runUntilCaughtUp();
    expect((await checkpointOf(h.store, SOURCES.chain))?.history_from).toBe(1_770_000_000 + 2 * 100);
  });

  it("holds the records of a market Gamma does not list yet, and stores them once it lists it", async () => {
    const listed = venue.gamma.markets;
    venue.gamma.markets = listed.filter((m) => m.conditionId !== C.condition);
    await h.dispose();
    h = await openIngestHarness(backend, venue, {
      env: { INGEST_START: "100", INGEST_BLOCK_SPAN: "25", INGEST_UNLISTED_RECHECK_SECONDS: "0" },
      maxBlockSpan: 25,
    });
    await h.ingest.runUntilCaughtUp();
    // Block 160's three fills of market 3 wait, as does the split of a condition no market has; the cursor moved on.
    expect((await fills()).map((f) => f.block_number)).toEqual([110, 110, 120, 120, 150, 150]);
    expect(await countHeldRecords(h.store.db)).toBe(4);
    expect(await checkpointOf(h.store, SOURCES.chain)).toMatchObject({
      cursor: "block:200",
      first_sync_done: 1,
      errors: 1,
    });
    venue.gamma.markets = listed;
    await h.ingest.runUntilCaughtUp();
    expect((await fills()).map((f) => f.fill_key)).toEqual(
      [110, 110, 120, 120, 150, 150, 160, 160, 160].map((block, i) =>
        chainFillKey(block, [0, 1, 0, 1, 0, 1, 0, 1, 2][i]!),
      ),
    );
    expect(
      (await fills())
        .filter((f) => f.block_number === 160)
        .every((f) => f.condition_id === C.condition && f.outcome_index === 1),
    ).toBe(true);
    expect(await countHeldRecords(h.store.db)).toBe(1);
    // Kept no longer than INGEST_UNLISTED_KEEP_DAYS: the held split of a condition no market claims is dropped then.
    await h.store.db
      .updateTable("unlisted_market_records")
      .set((eb) => ({ created_at: eb("created_at", "-", 8 * 86_400) }))
      .execute();
    await h.ingest.runUntilCaughtUp();
    expect(await countHeldRecords(h.store.db)).toBe(0);
  });
});
