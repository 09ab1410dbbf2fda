/**
 * What the matcher remembers survives a restarted ingest, on every backend: batches written by the ingest's
 * BatchWriter with the matcher in their transaction, and a new matcher (a new process) between them. A price move
 * that straddles the restart is told, once: its start is read back from the stored fills, and its quiet window from
 * the rule's mark. A market Smart Money opened before the restart is still held after it (the Deriver had not written
 * the position yet): a second buy into it tells nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { emptyStats } from "../analytics/wallet/wallet-overview.js";
import { loadConfig } from "../config/index.js";
import { BatchWriter } from "../ingest/batch-writer.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import type { NewFill } from "../store/fills.js";
import { fanOutMatches } from "./alert-matches.js";
import { createDestination } from "./destinations.js";
import { AlertMatcher } from "./matcher.js";
import { createRule } from "./rules.js";
import { alertsDb } from "./tables.js";

const SMART = `0x${"5a".repeat(20)}`;
const RETAIL = `0x${"6b".repeat(20)}`;
const MOVING = `0x${"7c".repeat(32)}`;
const OPENED = `0x${"8d".repeat(32)}`;

describe.each(storeBackends)("the alerts' matcher across a restarted ingest on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);
  const config = loadConfig({ ALERTS_RULES_CHECK_MS: "10" });
  const logger = createLogger("silent");
  let block = 0;
  let cursor = 0;
  const fill = (wallet: string, market: string, price: number): NewFill => {
    const n = ++block;
    return {
      fill_key: `chain:${String(50_000_000 + n).padStart(10, "0")}:000000`,
      source: "chain",
      tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
      log_index: 0,
      block_number: 50_000_000 + n,
      wallet,
      counterparty: null,
      role: "taker",
      condition_id: market,
      token_id: "1",
      outcome_index: 0,
      side: "BUY",
      size: 100_000_000,
      usd: Math.round(100_000_000 * price),
      price,
      fee: 0,
      ts: clock.now(),
      entry_type: null,
      exchange_version: 2,
    };
  };
  /** A started ingest: its BatchWriter with a new matcher in its transactions. */
  const startIngest = () => {
    const writer = new BatchWriter(store, clock, logger);
    const matcher = new AlertMatcher({ config, clock, logger });
    writer.onCommitting((tx, fills) => matcher.matchInTransaction(tx, fills).then(() => undefined));
    writer.onCommitted(async () => void matcher.committed());
    return async (fills: NewFill[]) => {
      clock.advance(60_000);
      await writer.commit({ source: "chain-logs", cursor: `block:${++cursor}`, fills });
      while ((await fanOutMatches(store, config.alerts.dashboardUrl)).taken > 0);
    };
  };
  const told = async (ruleId: number) =>
    (
      await alertsDb(store.db)
        .selectFrom("alert_deliveries")
        .select(["event_key", "payload"])
        .where("rule_id", "=", ruleId)
        .orderBy("id")
        .execute()
    ).map((d) => ({ key: d.event_key, move: JSON.parse(d.payload).move }));
  let rules: { moves: number; opened: number };

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
    await store.db
      .insertInto("wallet_stats")
      .values({
        ...emptyStats(SMART, clock.now()),
        avg_entry_price: null,
        mint_volume_30d: 0,
        merge_volume_30d: 0,
        maker_volume_30d: 0,
        volume_30d: 0,
        is_smart: 1,
      })
      .execute();
    const { row } = await createDestination(
      store,
      {
        account: "desk",
        destination: { kind: "webhook", name: "d", url: "https://93.184.216.34/" },
        box: new SecretBox(Buffer.alloc(32, 9)),
        now: clock.now(),
        settings: config.alerts,
      },
      { resolve: async () => [], allowLoopback: false },
    );
    const rule = async (kind: "price_move" | "smart_new_market", filters: object) =>
      (
        await createRule(store, {
          account: "desk",
          rule: { name: kind, kind, filters, destination_ids: [row.id] },
          now: clock.now(),
          settings: config.alerts,
        })
      ).id;
    rules = {
      moves: await rule("price_move", { markets: [MOVING], min_points: 10, window_minutes: 30 }),
      opened: await rule("smart_new_market", {}),
    };
  });
  afterAll(async () => dispose?.());

  it("tells a price move that straddles a restart once, and not again within its window after another", async () => {
    const start = fill(RETAIL, MOVING, 0.5);
    await startIngest()([start]);
    const moved = fill(RETAIL, MOVING, 0.65);
    await startIngest()([moved]);
    expect(await told(rules.moves)).toEqual([
      { key: moved.fill_key, move: { from: 0.5, to: 0.65, window_minutes: 30 } },
    ]);
    // Restarted again within the window: the rule is quiet on the market, however far the price goes.
    await startIngest()([fill(RETAIL, MOVING, 0.8)]);
    expect(await told(rules.moves)).toHaveLength(1);
  });

  it("holds a market Smart Money opened before a restart, before the Deriver wrote its position", async () => {
    const first = fill(SMART, OPENED, 0.3);
    await startIngest()([first]);
    await startIngest()([fill(SMART, OPENED, 0.31)]);
    expect((await told(rules.opened)).map((d) => d.key)).toEqual([first.fill_key]);
  });
});
