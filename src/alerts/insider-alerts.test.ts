/**
 * insider_alert rules, on every backend: a bet the Deriver scored at or above the rule's min_score, in its markets,
 * last filled after the rule was made, is told once per destination; lower scores, other markets and bets from
 * before the rule are not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import type { InsiderScoresTable } from "../store/schema.js";
import { AlertInvalid } from "./alert-errors.js";
import { createDestination } from "./destinations.js";
import { formatAlert } from "./formatters.js";
import { InsiderAlerts } from "./insider-alerts.js";
import { createRule } from "./rules.js";
import { alertsDb } from "./tables.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { insertRows } from "../store/derived-tables.js";

const MARKET = `0x${"1a".repeat(32)}`;
const OTHER = `0x${"2b".repeat(32)}`;
const wallet = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

describe.each(storeBackends)("insider scores as alerts on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);
  const config = loadConfig({});
  const bet = (n: number, score: number, conditionId: string, lastTs: number): InsiderScoresTable => ({
    wallet: wallet(n),
    condition_id: conditionId,
    outcome_index: 1,
    score,
    confidence: 0.8,
    bet_usd: 12_345,
    avg_price: 0.21,
    first_ts: lastTs - 60,
    last_ts: lastTs,
    cluster_id: null,
    facts: "[]",
    computed_at: clock.now(),
  });

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("tells each bet over the rule's score once, in its markets, after the rule was made", async () => {
    const { row } = await createDestination(
      store,
      {
        account: "a",
        destination: { kind: "webhook", name: "d", url: "https://93.184.216.34/" },
        box: new SecretBox(Buffer.alloc(32, 5)),
        now: clock.now(),
        settings: config.alerts,
      },
      { resolve: async () => [], allowLoopback: false },
    );
    const rule = await createRule(store, {
      account: "a",
      rule: {
        name: "knew",
        kind: "insider_alert",
        filters: { markets: [MARKET], min_score: 85 },
        destination_ids: [row.id],
      },
      now: clock.now(),
      settings: config.alerts,
    });
    expect(rule.filters).toMatchObject({ min_score: 85, markets: [MARKET], min_usd: 0 });
    const now = clock.now();
    await store.transaction((tx) =>
      insertRows(tx, "insider_scores", [
        bet(1, 92, MARKET, now + 60),
        bet(2, 84, MARKET, now + 60),
        bet(3, 99, OTHER, now + 60),
        bet(4, 97, MARKET, now - 600),
      ]),
    );
    const watcher = new InsiderAlerts({ store, config, clock, logger: createLogger("silent") });
    expect(await watcher.look()).toBe(1);
    expect(await watcher.look()).toBe(0);
    const told = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select("payload")
      .where("rule_id", "=", rule.id)
      .execute();
    expect(told.map((d) => JSON.parse(d.payload).insider)).toMatchObject([
      { wallet: wallet(1), condition_id: MARKET, outcome: "NO", score: 92, bet_usd: 12_345 },
    ]);
    const input = { messageId: "m", nowSeconds: clock.now(), telegramApiUrl: "https://93.184.216.34" };
    const telegram = JSON.parse(
      formatAlert("telegram", JSON.parse(told[0]!.payload), { bot_token: "1:x", chat_id: "7" }, input).body,
    );
    expect(telegram.text).toContain("insider score 92 on NO");
    expect(telegram.text).toContain(`${wallet(1)} bought $12,345 at 0.210`);
  });

  it("refuses filters an insider_alert rule does not take, and min_score on other kinds", async () => {
    const make = (kind: "insider_alert" | "whale_trade", filters: Record<string, unknown>) =>
      createRule(store, {
        account: "b",
        rule: { name: "x", kind, filters, destination_ids: [] },
        now: clock.now(),
        settings: config.alerts,
      });
    await expect(make("insider_alert", { min_usd: 5 })).rejects.toThrow(AlertInvalid);
    await expect(make("insider_alert", { wallets: [wallet(1)] })).rejects.toThrow(AlertInvalid);
    await expect(make("whale_trade", { min_score: 90 })).rejects.toThrow(AlertInvalid);
  });
});
