/**
 * consensus_flip rules, on every backend: a rule's first look is its baseline; a change of the side more whales
 * stand on (as the Deriver stored it) from one side to the other alerts once; to or from a tie does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { ConsensusFlips } from "./consensus-flips.js";
import { createDestination } from "./destinations.js";
import { formatAlert } from "./formatters.js";
import { createRule } from "./rules.js";
import { alertsDb } from "./tables.js";

const MARKET = `0x${"c5".repeat(32)}`;

describe.each(storeBackends)("consensus flips as alerts on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);
  const config = loadConfig({});
  const teams = async (yes: number, no: number) =>
    store.db
      .insertInto("market_stats")
      .values({
        condition_id: MARKET,
        computed_at: clock.now(),
        trades: 0,
        volume: 0,
        volume_24h: 0,
        whales_yes: yes,
        whales_no: no,
        mint_usd: 0,
        merge_usd: 0,
        complementary_usd: 0,
        unclassified_usd: 0,
        mint_trades: 0,
        merge_trades: 0,
        complementary_trades: 0,
        unclassified_trades: 0,
      })
      .onConflict((oc) => oc.column("condition_id").doUpdateSet({ whales_yes: yes, whales_no: no }))
      .execute();

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("alerts a change of side once, after a baseline, and not to or from a tie", async () => {
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
      rule: { name: "flip", kind: "consensus_flip", filters: { markets: [MARKET] }, destination_ids: [row.id] },
      now: clock.now(),
      settings: config.alerts,
    });
    const flips = new ConsensusFlips({ store, config, clock, logger: createLogger("silent") });
    await teams(5, 2);
    expect(await flips.look()).toBe(0);
    await teams(5, 3);
    expect(await flips.look()).toBe(0);
    clock.advance(10_000);
    await teams(2, 6);
    expect(await flips.look()).toBe(1);
    expect(await flips.look()).toBe(0);
    await teams(4, 4);
    expect(await flips.look()).toBe(0);
    clock.advance(10_000);
    await teams(7, 4);
    expect(await flips.look()).toBe(0);
    const told = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select("payload")
      .where("rule_id", "=", rule.id)
      .execute();
    expect(told.map((d) => JSON.parse(d.payload).consensus)).toMatchObject([
      { condition_id: MARKET, from: "YES", to: "NO", whales_yes: 2, whales_no: 6 },
    ]);
    const input = { messageId: "m", nowSeconds: clock.now(), telegramApiUrl: "https://93.184.216.34" };
    const telegram = JSON.parse(
      formatAlert("telegram", JSON.parse(told[0]!.payload), { bot_token: "1:x", chat_id: "7" }, input).body,
    );
    expect(telegram.text).toContain("Smart Money consensus flipped YES → NO");
    expect(telegram.text).toContain("2 whales on YES, 6 on NO");
  });
});
