/**
 * The public scorecard (issue 52), on every store: signals appended to the hash-chained ledger are graded once their
 * market resolved (hits against the simulation's own truth, the follow return by its formula written out here), the
 * Deriver's recorder records a Smart Money fill stored after its first look as a whale alert, and editing one stored
 * record makes the API, the check and `pelagic scorecard` say where the chain breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkScorecard } from "../src/commands/scorecard.js";
import { SignalRecorder } from "../src/derive/signal-recorder.js";
import { insertFills } from "../src/store/fills.js";
import { SignalChainBroken, appendSignals, verifySignalChain } from "../src/store/signal-ledger.js";
import { storeBackends } from "./support/backends.js";
import { openWorldApp, type WorldApp } from "./support/world-app.js";

const DAY = 86_400;

describe.each(storeBackends)("the scorecard on $kind", (backend) => {
  let w: WorldApp;
  const get = async (url: string) => (await w.app.inject(url)).json();

  beforeAll(async () => {
    w = await openWorldApp({
      storeBackend: backend,
      env: { RATE_FREE_PER_MINUTE: "100000", SMART_MIN_RESOLVED_MARKETS: "3" },
    });
  }, 120_000);
  afterAll(async () => w?.close());

  /** Markets resolved in the world's last 40 days, with trades on both outcomes after a signal 10 days before. */
  const resolvedMarkets = () =>
    w.world.markets
      .filter((m) => m.resolvedAt !== null && m.resolvedAt > w.now - 40 * DAY && m.truth !== 2)
      .slice(0, 6);

  it("grades appended signals against the truth once resolved, with the follow return's formula", async () => {
    const markets = resolvedMarkets();
    expect(markets.length).toBeGreaterThan(2);
    const signals = markets.map((m, i) => ({
      kind: "consensus",
      emitted_at: m.tradingStop - 10 * DAY,
      condition_id: m.conditionId,
      outcome_index: i % 2,
      wallet: null,
      ref: `test:${m.conditionId}`,
      detail: JSON.stringify({ i }),
    }));
    expect(await w.store.transaction((tx) => appendSignals(tx.db, signals))).toBe(signals.length);
    // Appending the same signals again records nothing.
    expect(await w.store.transaction((tx) => appendSignals(tx.db, signals))).toBe(0);

    const { signals: listed } = await get("/api/v2/scorecard/signals?limit=100");
    expect(listed.map((s: { ref: string }) => s.ref)).toEqual(signals.map((s) => s.ref));
    const fee = new Map(
      (await w.store.db.selectFrom("markets").select(["condition_id", "fee_rate"]).execute()).map((r) => [
        r.condition_id,
        Number(r.fee_rate),
      ]),
    );
    let hits = 0;
    markets.forEach((m, i) => {
      const s = listed[i];
      const won = m.truth === i % 2;
      if (won) hits++;
      expect(s.payout, m.conditionId).toBe(won ? 1 : 0);
      if (s.entry_price !== null) {
        const p = s.entry_price;
        const cost = p + fee.get(m.conditionId)! * p * (1 - p);
        expect(s.follow_return).toBeCloseTo(((won ? 1 : 0) - cost) / cost, 3);
      }
    });
    const card = await get("/api/v2/scorecard");
    expect(card.chain).toMatchObject({ records: signals.length, verified: true, head_seq: signals.length });
    const all = card.rows.find((r: { kind: string; month: string }) => r.kind === "consensus" && r.month === "all");
    expect(all).toMatchObject({ signals: signals.length, graded: signals.length, hits });
    expect(all.hit_rate).toBeCloseTo(hits / signals.length, 4);
    expect(all.hit_rate_low).toBeLessThanOrEqual(all.hit_rate);
    expect(all.hit_rate_high).toBeGreaterThanOrEqual(all.hit_rate);
  });

  it("records a Smart Money fill stored after the recorder's first look as a whale alert backing what it bought", async () => {
    const recorder = new SignalRecorder(w.store, w.config);
    await recorder.record(w.now);
    const smart = await w.store.db
      .selectFrom("wallet_stats")
      .select("wallet")
      .where("is_smart", "=", 1)
      .orderBy("wallet")
      .executeTakeFirstOrThrow();
    const open = w.world.markets.find((m) => m.resolvedAt === null && m.tradingStop > w.now)!;
    const [template] = await w.store.db.selectFrom("fills").selectAll().orderBy("id", "desc").limit(1).execute();
    const { id: _id, ...fill } = template!;
    await w.store.transaction((tx) =>
      insertFills(tx, [
        {
          ...fill,
          fill_key: "data:test-whale-alert",
          wallet: smart.wallet,
          condition_id: open.conditionId,
          token_id: open.noTokenId,
          outcome_index: 1,
          side: "SELL",
          price: 0.4,
          size: 50_000_000_000,
          usd: 20_000_000_000,
          ts: w.now,
          block_number: null,
          log_index: null,
        },
      ]),
    );
    expect(await recorder.record(w.now + 60)).toBeGreaterThanOrEqual(1);
    const alert = await w.store.db
      .selectFrom("signal_ledger")
      .selectAll()
      .where("ref", "=", "whale:data:test-whale-alert")
      .executeTakeFirstOrThrow();
    // A sale of NO backs YES.
    expect(alert).toMatchObject({ kind: "whale_alert", wallet: smart.wallet, outcome_index: 0 });
    expect(Number(alert.emitted_at)).toBe(w.now + 60);
    expect((await verifySignalChain(w.store.db)).broken).toBeNull();
  });

  it("prints the chain's head and each kind's figures while it holds", async () => {
    const lines: string[] = [];
    await checkScorecard(w.store, w.clock, (line) => lines.push(line));
    const check = await verifySignalChain(w.store.db);
    expect(lines[0]).toBe(
      `the signal ledger holds: ${check.records} records, head ${check.head!.seq} ${check.head!.hash}`,
    );
    expect(lines.some((line) => line.startsWith("consensus: "))).toBe(true);
  });

  it("finds an edited record: the API, the check and the command all say where the chain breaks", async () => {
    await w.store.db.updateTable("signal_ledger").set({ detail: '{"i":99}' }).where("seq", "=", 2).execute();
    const check = await verifySignalChain(w.store.db);
    expect(check.broken).toMatchObject({ seq: 2, reason: "its hash does not match its fields" });
    expect((await get("/api/v2/scorecard")).chain).toMatchObject({ verified: false, broken_seq: 2 });
    await expect(checkScorecard(w.store, w.clock, () => undefined)).rejects.toThrow(SignalChainBroken);
    // Dropping a record breaks it too, at the gap.
    await w.store.db.deleteFrom("signal_ledger").where("seq", "=", 1).execute();
    expect((await verifySignalChain(w.store.db)).broken).toMatchObject({ seq: 2, reason: "record 1 is missing" });
  });
});
