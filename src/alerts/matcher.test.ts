/**
 * The matcher over a real store, on every backend: a batch's fills against rules of each kind (watched wallets,
 * watched markets for Smart Money only, whale trades in a category), with sides, sizes and paused rules; one
 * delivery per (rule, destination, fill) however often a batch is seen; stale fills alert nobody; a rule change is
 * picked up by the next batch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { emptyStats } from "../analytics/wallet/wallet-overview.js";
import { loadConfig } from "../config/index.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { marketRow } from "../store/testing/market-row.js";
import { insertRows } from "../store/derived-tables.js";
import { createDestination } from "./destinations.js";
import { fanOutMatches, type MatchedFill } from "./alert-matches.js";
import { AlertMatcher } from "./matcher.js";
import { createRule, updateRule } from "./rules.js";
import { alertsDb } from "./tables.js";

const WHALE = `0x${"a1".repeat(20)}`;
const RETAIL = `0x${"b2".repeat(20)}`;
const MARKET = `0x${"c3".repeat(32)}`;
const OTHER_MARKET = `0x${"d4".repeat(32)}`;
const NO_BOARD = { avg_entry_price: null, mint_volume_30d: 0, merge_volume_30d: 0, maker_volume_30d: 0, volume_30d: 0 };

describe.each(storeBackends)("the alerts' matcher on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);
  const config = loadConfig({ ALERTS_RULES_CHECK_MS: "10", ALERTS_WHALE_MIN_USD: "1000" });
  const matcher = new AlertMatcher({ config, clock, logger: createLogger("silent") });
  let n = 0;
  const fill = (wallet: string, usd: number, side: "BUY" | "SELL" = "BUY", conditionId = MARKET): MatchedFill => ({
    fill_key: `chain:${String(++n).padStart(12, "0")}`,
    tx_hash: `0x${"e".repeat(64)}`,
    wallet,
    condition_id: conditionId,
    outcome_index: 0,
    side,
    size: Math.round((usd / 0.5) * 1e6),
    usd: Math.round(usd * 1e6),
    price: 0.5,
    ts: clock.now(),
  });
  /** A batch matched in its transaction, committed, and fanned out as a delivery worker does: the deliveries stored. */
  const match = async (fills: MatchedFill[]) => {
    await store.transaction((tx) => matcher.matchInTransaction(tx, fills));
    matcher.committed();
    return (await fanOutMatches(store, config.alerts.dashboardUrl)).stored;
  };
  const deliveries = () =>
    alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select(["rule_id", "destination_id", "event_key"])
      .orderBy("id")
      .execute();
  let rules: Record<string, number>;

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
    await store.db
      .insertInto("wallet_stats")
      .values({ ...emptyStats(WHALE, clock.now()), ...NO_BOARD, is_smart: 1 })
      .execute();
    await store.db
      .insertInto("markets")
      .values(
        marketRow({
          id: "77",
          condition_id: MARKET,
          question: "Will it rain?",
          slug: "rain",
          category: "Sports",
          yes_token_id: "1",
          no_token_id: "2",
          exchange_version: null,
        }),
      )
      .execute();
    const box = new SecretBox(Buffer.alloc(32, 7));
    const policy = { resolve: async () => [], allowLoopback: false };
    const destination = async (account: string) =>
      (
        await createDestination(
          store,
          {
            account,
            destination: { kind: "webhook", name: "d", url: "https://93.184.216.34/" },
            box,
            now: clock.now(),
            settings: config.alerts,
          },
          policy,
        )
      ).row.id;
    const a = await destination("a");
    const b = await destination("b");
    const rule = async (
      account: string,
      destinationId: number,
      kind: "wallet_trade" | "market_whale_trade" | "whale_trade",
      filters: object,
    ) =>
      (
        await createRule(store, {
          account,
          rule: { name: kind, kind, filters, destination_ids: [destinationId] },
          now: clock.now(),
          settings: config.alerts,
        })
      ).id;
    rules = {
      destinationB: b,
      whaleBuys: await rule("a", a, "wallet_trade", { wallets: [WHALE], side: "buy" }),
      retail: await rule("b", b, "wallet_trade", { wallets: [RETAIL], min_usd: 50 }),
      market: await rule("a", a, "market_whale_trade", { markets: [MARKET] }),
      sports: await rule("b", b, "whale_trade", { categories: ["sports"], min_usd: 5_000 }),
    };
  });
  afterAll(async () => dispose?.());

  it("stores one delivery per matching rule and destination, by kind, side, size, Smart Money and category", async () => {
    const batch = [
      fill(WHALE, 10_000), // whaleBuys, market, sports
      fill(WHALE, 2_000, "SELL"), // market (a sell; under sports' size)
      fill(WHALE, 9_000, "BUY", OTHER_MARKET), // whaleBuys (no category known: not sports)
      fill(RETAIL, 10), // under retail's min_usd
      fill(RETAIL, 60_000), // retail; not Smart Money: no whale kinds
    ];
    expect(await match(batch)).toBe(6);
    const byFill = (i: number) => batch[i]!.fill_key;
    expect((await deliveries()).map((d) => [Number(d.rule_id), d.event_key])).toEqual([
      [rules.whaleBuys, byFill(0)],
      [rules.market, byFill(0)],
      [rules.sports, byFill(0)],
      [rules.market, byFill(1)],
      [rules.whaleBuys, byFill(2)],
      [rules.retail, byFill(4)],
    ]);
    // The same fills again (a replayed batch, another process): nothing more.
    expect(await match(batch)).toBe(0);
    expect(await deliveries()).toHaveLength(6);
  });

  it("tells of a Smart Money buy into a market no Smart Money held, once, and not of one they hold", async () => {
    const THIRD = `0x${"f5".repeat(32)}`;
    await store.transaction((tx) =>
      insertRows(tx, "positions", [
        {
          wallet: WHALE,
          token_id: "1",
          condition_id: MARKET,
          outcome_index: 0,
          shares: 5_000_000,
          avg_price: 0.5,
          total_bought: 2_500_000,
          realized_pnl: 0,
          fees: 0,
          first_ts: clock.now() - 100,
          last_ts: clock.now() - 100,
          closed_ts: null,
          status: "open",
        },
      ]),
    );
    const opened = await createRule(store, {
      account: "b",
      rule: { name: "new", kind: "smart_new_market", filters: {}, destination_ids: [rules.destinationB!] },
      now: clock.now(),
      settings: config.alerts,
    });
    clock.advance(1_000);
    const held = fill(WHALE, 10, "BUY", MARKET);
    const first = fill(WHALE, 10, "BUY", THIRD);
    const again = fill(WHALE, 10, "BUY", THIRD);
    expect(await match([held, first, fill(RETAIL, 10, "BUY", OTHER_MARKET)])).toBeGreaterThan(0);
    matcher.committed();
    await match([again]);
    const told = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select("event_key")
      .where("rule_id", "=", opened.id)
      .execute();
    expect(told.map((d) => d.event_key)).toEqual([first.fill_key]);
  });

  it("tells of a watched market's YES price moving by the rule's min_points within its window, once per window", async () => {
    const MOVING = `0x${"a7".repeat(32)}`;
    const rule = await createRule(store, {
      account: "b",
      rule: {
        name: "moves",
        kind: "price_move",
        filters: { markets: [MOVING], min_points: 10, window_minutes: 30 },
        destination_ids: [rules.destinationB!],
      },
      now: clock.now(),
      settings: config.alerts,
    });
    clock.advance(1_000);
    const at = (price: number, outcome = 0) => ({ ...fill(RETAIL, 5, "BUY", MOVING), price, outcome_index: outcome });
    const start = at(0.5);
    const small = at(0.55);
    const big = at(0.4, 1); // NO at 0.40: YES at 0.60
    const further = at(0.75);
    await match([start, small]);
    matcher.committed();
    await match([big, further]);
    matcher.committed();
    const told = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select(["event_key", "payload"])
      .where("rule_id", "=", rule.id)
      .execute();
    expect(told.map((d) => d.event_key)).toEqual([big.fill_key]);
    expect(JSON.parse(told[0]!.payload).move).toEqual({ from: 0.5, to: 0.6, window_minutes: 30 });
    // A window later, the rule speaks again.
    clock.advance(31 * 60_000);
    const later = at(0.9);
    const back = at(0.7);
    await match([later, back]);
    expect(
      await alertsDb(store.db)
        .selectFrom("alert_deliveries")
        .select("event_key")
        .where("rule_id", "=", rule.id)
        .execute(),
    ).toHaveLength(2);
  });

  it("alerts nobody for a fill older than ALERTS_MAX_FILL_AGE_SECONDS, and sees a paused rule at the next batch", async () => {
    const before = (await deliveries()).length;
    const stale = { ...fill(WHALE, 10_000), ts: clock.now() - config.alerts.maxFillAgeSeconds - 1 };
    expect(await match([stale])).toBe(0);
    await updateRule(store, {
      account: "a",
      id: rules.whaleBuys!,
      change: { paused: true },
      now: clock.now(),
      settings: config.alerts,
    });
    clock.advance(1_000);
    // whaleBuys is paused; market_whale_trade and whale_trade ask for more than 100 USD.
    expect(await match([fill(WHALE, 100)])).toBe(0);
    expect(await deliveries()).toHaveLength(before);
    const payload = await alertsDb(store.db)
      .selectFrom("alert_deliveries")
      .select("payload")
      .where("rule_id", "=", rules.sports!)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(payload.payload)).toMatchObject({
      type: "alert.whale_trade",
      trade: {
        wallet: WHALE,
        side: "BUY",
        outcome: "YES",
        usd: 10_000,
        shares: 20_000,
        market_question: "Will it rain?",
        category: "SPORTS",
      },
      links: { market: "http://127.0.0.1:8080/#/market/77" },
    });
  });
});
