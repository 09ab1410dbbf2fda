import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { storeChecksum } from "../store/checksum.js";
import type { DataTradeRow } from "../venue/index.js";
import { gammaMarket } from "../venue/testing/fixtures.js";
import { DataApiTradesPipeline } from "./data-api-trades.js";
import { MarketsSync } from "./markets-sync.js";
import { SOURCES } from "./sources.js";
import { address, hash32, startFakeVenue, type FakeVenue } from "./testing/fake-venue.js";
import { checkpointOf, openIngestHarness, type IngestHarness } from "./testing/harness.js";

const T0 = 1_777_000_000;
let serial = 0;

function trade(market: number, side: "BUY" | "SELL", ts: number, overrides: Partial<DataTradeRow> = {}): DataTradeRow {
  serial += 1;
  return {
    proxyWallet: address(0x100 + (serial % 7)),
    side,
    asset: String(1000 + market),
    conditionId: `0x${market.toString(16).padStart(64, "0")}`,
    size: 10 + serial / 100,
    price: 0.42,
    timestamp: ts,
    outcomeIndex: 0,
    transactionHash: hash32(0x7000 + serial),
    title: "Will it?",
    outcome: "Yes",
    name: `trader-${serial % 7}`,
    ...overrides,
  };
}

describe.each(storeBackends)("Data API trades on $kind", (backend) => {
  let venue: FakeVenue;
  let h: IngestHarness;
  let pipeline: DataApiTradesPipeline;
  const signal = new AbortController().signal;

  const runPass = async () => {
    for (let i = 0; i < 50; i++) if ((await pipeline.step(signal)).caughtUp) return;
    throw new Error("the pass did not finish");
  };
  const storedPerMarket = async () =>
    Object.fromEntries(
      (
        await h.store.db
          .selectFrom("fills")
          .select(["condition_id", (eb) => eb.fn.countAll<number>().as("n")])
          .groupBy("condition_id")
          .orderBy("condition_id")
          .execute()
      ).map((r) => [Number(BigInt(r.condition_id)), Number(r.n)]),
    );

  beforeEach(async () => {
    venue = await startFakeVenue();
    const inEvent = [{ id: "900", slug: "e", title: "E" }];
    venue.gamma.events = [{ id: "900", slug: "e", title: "E" }];
    venue.gamma.markets = [1, 2, 3].map((m) => gammaMarket(m, { events: inEvent }));
    venue.dataApi.ceiling = 20;
    // Market 1: 50 trades, half each side; market 2: 70 buys; market 3: 5 trades. 125 in all.
    for (let i = 0; i < 50; i++) venue.dataApi.trades.push(trade(1, i % 2 ? "SELL" : "BUY", T0 + i));
    for (let i = 0; i < 70; i++) venue.dataApi.trades.push(trade(2, "BUY", T0 + 100 + i));
    for (let i = 0; i < 5; i++) venue.dataApi.trades.push(trade(3, "SELL", T0 + 200 + i));
    h = await openIngestHarness(backend, venue, { withChain: false });
    const clients = venue.clients({ withChain: false });
    await new MarketsSync(h.context(), clients.gamma)
      .step(signal)
      .then(() => new MarketsSync(h.context(), clients.gamma).step(signal));
    pipeline = new DataApiTradesPipeline(h.context(), clients.dataApi, {
      startTs: null,
      pageSize: 10,
      overlapSeconds: 5,
    });
  });
  afterEach(async () => {
    await h.dispose();
    await venue.close();
  });

  it("notices the offset ceiling and narrows to one market, then one market and side, counting what stays truncated", async () => {
    await runPass();
    expect(await storedPerMarket()).toEqual({ 1: 50, 2: 30, 3: 5 });
    const checkpoint = await checkpointOf(h.store, SOURCES.dataApiTrades);
    expect(checkpoint).toMatchObject({
      first_sync_done: 1,
      errors: 1,
      last_error: expect.stringContaining(`market 0x${"2".padStart(64, "0")} BUY`),
    });
    expect(JSON.parse(checkpoint!.cursor)).toEqual({ through: T0 + 204, pass: null });
    const stored = await h.store.db
      .selectFrom("fills")
      .selectAll()
      .where("condition_id", "=", `0x${"3".padStart(64, "0")}`)
      .orderBy("ts")
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      source: "data_api",
      side: "SELL",
      price: 0.42,
      usd: Math.round(stored.size * 0.42),
      log_index: null,
      entry_type: null,
    });
    expect(stored.fill_key).toBe(`data:${stored.tx_hash}:${stored.wallet}:1003:SELL:${stored.size}:420000`);
    expect(
      await h.store.db.selectFrom("wallets").select("name").where("address", "=", stored.wallet).executeTakeFirst(),
    ).toMatchObject({ name: expect.stringMatching(/^trader-/) });
  });

  it("then reads only the new window (with its overlap), and replays change nothing", async () => {
    await runPass();
    let requests = 0;
    venue.dataApi.intercept = (r) => void (r.path === "/trades" && requests++);
    for (let i = 0; i < 4; i++) venue.dataApi.trades.push(trade(3, "BUY", T0 + 300 + i));
    await runPass();
    // The newest trade to start the pass, then one market-wide page reaches back past the previous pass.
    expect(requests).toBe(2);
    expect(await storedPerMarket()).toEqual({ 1: 50, 2: 30, 3: 9 });
    expect(JSON.parse((await checkpointOf(h.store, SOURCES.dataApiTrades))!.cursor)).toEqual({
      through: T0 + 303,
      pass: null,
    });
    const before = await storeChecksum(h.store.db);
    await h.store.db
      .updateTable("ingest_checkpoints")
      .set({ cursor: JSON.stringify({ through: null, pass: null }) })
      .where("source", "=", SOURCES.dataApiTrades)
      .execute();
    await runPass();
    expect(await storeChecksum(h.store.db)).toEqual(before);
  });

  it("skips a malformed row (logged with its source, counted) and stores the rest of its page", async () => {
    venue.dataApi.trades = [
      trade(3, "BUY", T0 + 1),
      { ...trade(3, "BUY", T0 + 2), size: "lots" as unknown as number },
      trade(3, "SELL", T0 + 3),
    ];
    await runPass();
    expect(await storedPerMarket()).toEqual({ 3: 2 });
    expect(await checkpointOf(h.store, SOURCES.dataApiTrades)).toMatchObject({
      errors: 1,
      last_error: expect.stringContaining("data-api /trades offset 0 row 1"),
    });
    expect(h.logs).toContainEqual(
      expect.objectContaining({ msg: "skipped a malformed venue record", source: SOURCES.dataApiTrades }),
    );
  });
});
