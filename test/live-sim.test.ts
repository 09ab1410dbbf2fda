/**
 * Both live streams end to end on the simulated venue: the service (role all: ingest, the relay, the API) follows a
 * live simulated venue whose RTDS feed loses 3% of its messages, as the real one drops events. Against the
 * simulation's ground truth:
 * - the raw relay labels transactions MINT or MERGE only when they are (accuracy), labels most of them
 *   (coverage: a transaction that lost a row stays unlabelled), gives all fills of a transaction the same label,
 *   holds each fill the 700 ms, and delivers the same events once to an SSE and a WebSocket subscriber;
 * - the indexed stream sends every classified chain fill once, with the truth's entry type, parties, directions
 *   and amounts, and `types=mint,merge` only those.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { loadConfig } from "../src/config/index.js";
import { SOURCES } from "../src/ingest/sources.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import type { IndexedTradeEvent, RelayTradeEvent } from "../src/live/trade-events.js";
import { createLogger } from "../src/platform/logger.js";
import { startService, type Service } from "../src/runtime/index.js";
import { parseFaults, startSimVenue, truthFills, type SimVenue, type TruthFill } from "../src/sim/servers/index.js";
import { generateWorld } from "../src/sim/world/index.js";
import { readCheckpoint } from "../src/store/checkpoints.js";
import { openSse, openWs, until, type SseClient, type WsClient } from "./support/live-clients.js";
import { historyEnd } from "./support/world-end.js";

const HOLD_MS = 700;

interface Tally {
  seen: number;
  labelled: number;
  correct: number;
}

describe("live streams on the simulated venue", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-live-sim-"));
  let venue: SimVenue | undefined;
  let service: Service | undefined;
  const clients: SseClient[] = [];

  afterAll(async () => {
    for (const client of clients) client.close();
    await service?.stop();
    await venue?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("labels transactions against the ground truth and indexes every classified fill once", async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const world = generateWorld({
      seed: 26,
      end: historyEnd(nowSeconds),
      markets: 60,
      wallets: 400,
      fills: 6_000,
      days: 30,
    });
    venue = await startSimVenue({
      world,
      live: { matchesPerSecond: 25, from: nowSeconds },
      liveTickMs: 100,
      faults: parseFaults("rtds-loss=0.03"),
    });
    const liveFrom = world.tables.lastTs + 1;
    const config = loadConfig({
      ...simIngestEnv(venue, {
        INGEST_POLL_SECONDS: "1",
        INGEST_READ_THREAD: "false",
        VENUE_RPC_REQUESTS_PER_SECOND: "1000",
        ISW_MONITOR: "false",
      }),
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "silent",
    });
    service = await startService(config, { logger: createLogger("silent") });
    const { key } = await createKey(service.store.db, { account: "watcher", plan: "premium", now: nowSeconds });
    const headers = { authorization: `Bearer ${key}` };
    const raw = await openSse(`${service.url}/api/public/v1/live/trades`, headers);
    const ws = (await openWs(`${service.url.replace("http", "ws")}/api/public/v1/live/ws?stream=trades`, {
      protocols: ["pelagic.live.v1", `pelagic.key.${key}`],
    })) as WsClient;
    const indexedAll = await openSse(`${service.url}/api/public/v1/live/trades-indexed`, headers);
    const indexedMintMerge = await openSse(
      `${service.url}/api/public/v1/live/trades-indexed?types=mint,merge`,
      headers,
    );
    clients.push(raw, indexedAll, indexedMintMerge);

    const store = service.store;
    await until(
      "the chain follower's first sync",
      async () => (await readCheckpoint(store.db, SOURCES.chain))?.first_sync_done === 1,
      120_000,
    );
    await until(
      "400 live transactions on the raw stream",
      () => new Set(raw.trades<RelayTradeEvent>().map((e) => e.transactionHash)).size >= 400,
      120_000,
    );
    await until("indexed events", () => indexedAll.trades().length > 100, 150_000);
    // Stop the venue's trading where it is; what it sent arrives within the hold, the chain within a poll or two.
    await venue.close();
    venue = undefined;
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS + 1_000));

    const truth = new Map<string, TruthFill[]>();
    for (const fill of truthFills(world, { from: liveFrom }))
      truth.set(fill.txHash, [...(truth.get(fill.txHash) ?? []), fill]);

    // Raw relay: one label per transaction, checked against the truth.
    const events = raw.trades<RelayTradeEvent>();
    const arrivals = raw.frames.filter((f) => f.event === "trade").map((f) => f.atMs);
    const byTx = new Map<string, RelayTradeEvent[]>();
    events.forEach((e) => byTx.set(e.transactionHash, [...(byTx.get(e.transactionHash) ?? []), e]));
    const tallies: Record<string, Tally> = {
      MINT: { seen: 0, labelled: 0, correct: 0 },
      MERGE: { seen: 0, labelled: 0, correct: 0 },
      COMPLEMENTARY: { seen: 0, labelled: 0, correct: 0 },
    };
    const labelledAs: Record<string, Tally> = {
      MINT: { seen: 0, labelled: 0, correct: 0 },
      MERGE: { seen: 0, labelled: 0, correct: 0 },
      COMPLEMENTARY: { seen: 0, labelled: 0, correct: 0 },
    };
    for (const [tx, rows] of byTx) {
      const fills = truth.get(tx);
      expect(fills, `transaction ${tx} is a live match of the world`).toBeDefined();
      expect(new Set(rows.map((r) => r.settlement_type)).size, `one label for all fills of ${tx}`).toBe(1);
      expect(rows.length).toBeLessThanOrEqual(fills!.length);
      const actual = fills![0]!.entryType;
      const label = rows[0]!.settlement_type;
      tallies[actual]!.seen++;
      if (label !== null) {
        tallies[actual]!.labelled++;
        labelledAs[label]!.labelled++;
        if (label === actual) labelledAs[label]!.correct++;
      }
      // Complete within its hold: every row came before the first row's hold ended. A row the live feed lost and its
      // poll recovered later arrives after the rest were released, and both parts rightly carry no label.
      const firstMs = Math.min(...rows.map((r) => r.relay_received_at_ms));
      const lateMs = rows.map((r) => r.relay_received_at_ms - firstMs).filter((ms) => ms >= HOLD_MS);
      if (rows.length === fills!.length && lateMs.length === 0)
        expect(label, `transaction ${tx}, complete within its hold`).toBe(actual);
    }
    const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
    console.log(
      `raw relay on the simulated venue (rtds-loss 3%): ${byTx.size} transactions, ${events.length} fills\n` +
        (["MINT", "MERGE", "COMPLEMENTARY"] as const)
          .map(
            (type) =>
              `  ${type}: accuracy ${pct(labelledAs[type]!.correct, labelledAs[type]!.labelled)} (${labelledAs[type]!.correct}/${labelledAs[type]!.labelled} labelled ${type}), coverage ${pct(tallies[type]!.labelled, tallies[type]!.seen)} (${tallies[type]!.labelled}/${tallies[type]!.seen})`,
          )
          .join("\n"),
    );
    for (const type of ["MINT", "MERGE", "COMPLEMENTARY"])
      expect(labelledAs[type]!.correct).toBe(labelledAs[type]!.labelled);
    expect(tallies.MINT!.seen).toBeGreaterThan(50);
    expect(tallies.MERGE!.seen).toBeGreaterThan(10);
    expect(tallies.MINT!.labelled / tallies.MINT!.seen).toBeGreaterThan(0.8);
    expect(tallies.MERGE!.labelled / tallies.MERGE!.seen).toBeGreaterThan(0.7);

    // Each fill once, all fields, held the 700 ms (and not much more: the relay runs in this very process).
    const keys = events.map((e) => `${e.transactionHash}|${e.proxyWallet}|${e.asset}|${e.side}|${e.size}|${e.price}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of events) {
      expect(Object.keys(e)).toEqual(
        expect.arrayContaining([
          "asset",
          "conditionId",
          "eventSlug",
          "proxyWallet",
          "side",
          "price",
          "size",
          "outcome",
          "pseudonym",
          "bio",
          "profileImage",
          "title",
          "timestamp",
          "transactionHash",
          "relay_received_at_ms",
          "settlement_type",
          "settlement_hold_ms",
        ]),
      );
      expect(e.settlement_hold_ms).toBe(HOLD_MS);
    }
    const firstOfTx = new Map<string, number>();
    for (const e of events)
      firstOfTx.set(e.transactionHash, Math.min(firstOfTx.get(e.transactionHash) ?? Infinity, e.relay_received_at_ms));
    const held = events.map((e, i) => arrivals[i]! - firstOfTx.get(e.transactionHash)!);
    expect(Math.min(...held)).toBeGreaterThanOrEqual(HOLD_MS - 1);
    // The WebSocket subscriber got the same fills, in the same order.
    await ws.waitFor("the WebSocket's copy", (messages) => messages.length >= events.length, 5_000);
    expect(ws.messages.map((m) => m.data)).toEqual(events);

    // Indexed stream: every classified chain fill between the first and last block it showed, once, as the truth has it.
    const indexed = indexedAll.trades<IndexedTradeEvent>();
    const truthByKey = new Map<string, TruthFill>();
    for (const fills of truth.values()) for (const f of fills) truthByKey.set(`${f.txHash}#${f.logIndex}`, f);
    const indexedKeys = indexed.map((e) => `${e.transaction_hash}#${e.log_index}`);
    expect(new Set(indexedKeys).size).toBe(indexedKeys.length);
    for (const e of indexed) {
      const f = truthByKey.get(`${e.transaction_hash}#${e.log_index}`);
      expect(f, `${e.transaction_hash}#${e.log_index} is a live fill`).toBeDefined();
      expect(e.entry_type).toBe(f!.entryType);
      expect(e.fill_role).toBe(f!.role === "MAKER" ? "maker" : "taker");
      expect([e.maker, e.taker]).toEqual(
        f!.role === "MAKER" ? [f!.wallet, f!.counterparty] : [f!.counterparty, f!.wallet],
      );
      expect(f!.role === "MAKER" ? e.maker_side : e.taker_side).toBe(f!.side);
      expect(e.maker_side === e.taker_side).toBe(f!.entryType !== "COMPLEMENTARY");
      expect(e.usd_amount).toBeCloseTo(f!.usdMicro / 1e6, 6);
      expect(e.condition_id).toBe(f!.conditionId);
      expect(e.title).toBe(world.markets.find((m) => m.conditionId === f!.conditionId)!.question);
    }
    const blocks = indexed.map((e) => e.block_number ?? 0);
    const [firstBlock, lastBlock] = [Math.min(...blocks), Math.max(...blocks)];
    const expected = [...truthByKey.values()]
      .filter((f) => f.blockNumber > firstBlock && f.blockNumber < lastBlock)
      .map((f) => `${f.txHash}#${f.logIndex}`);
    expect(expected.length).toBeGreaterThan(50);
    const got = new Set(indexedKeys);
    expect(expected.filter((k) => !got.has(k))).toEqual([]);
    const filtered = indexedMintMerge.trades<IndexedTradeEvent>();
    expect(filtered).toEqual(indexed.filter((e) => e.entry_type !== "COMPLEMENTARY"));
    expect(filtered.length).toBeGreaterThan(0);
    ws.socket.close();
  }, 480_000);
});
