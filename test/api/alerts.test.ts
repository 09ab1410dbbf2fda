/**
 * The alerts' routes (issue 51) on every store backend: who may call them, destinations of the four kinds (the
 * webhook's secret shown once and sealed at rest, the other secrets never shown), rules of each kind with their
 * filters put in one form, the 422s that name the field, the per-account limits, pause and resume, and that one
 * account never sees another's; the test fire to each platform's loopback stand-in (its request shape, the webhook's
 * signature), a destination that answers gone disabled with its reason, a failed attempt logged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { alertsDb } from "../../src/alerts/tables.js";
import { startChatPlatforms, type ChatPlatforms } from "../../src/sim/servers/chat-platforms.js";
import { storeBackends } from "../support/backends.js";
import { openTestApp, type TestApp } from "../support/app.js";

const WALLET = `0x${"ab".repeat(20)}`;
const MARKET = `0x${"cd".repeat(32)}`;
const PUBLIC_HOOK = "https://93.184.216.34/hooks/pelagic";

describe.each(storeBackends)("alert rules and destinations on $kind", (backend) => {
  let t: TestApp;
  let premium: string;
  let other: string;
  let free: string;

  beforeAll(async () => {
    t = await openTestApp({
      storeBackend: backend,
      env: {
        ALERTS_DESTINATIONS_PER_ACCOUNT: "5",
        ALERTS_RULES_PER_ACCOUNT: "3",
        ALERTS_DISCORD_WEBHOOK_PREFIX: "https://93.184.216.34/discord/",
        ALERTS_SLACK_WEBHOOK_PREFIX: "https://93.184.216.34/slack/",
        ALERTS_TELEGRAM_API_URL: "https://93.184.216.34",
      },
    });
    premium = (await createKey(t.store.db, { account: "desk", plan: "premium", now: t.clock.now() })).key;
    other = (await createKey(t.store.db, { account: "elsewhere", plan: "premium", now: t.clock.now() })).key;
    free = (await createKey(t.store.db, { account: "reader", plan: "free", now: t.clock.now() })).key;
  });
  afterAll(async () => t?.close());

  const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: unknown, key = premium) =>
    t.app.inject({
      method,
      url,
      headers: { "x-api-key": key },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("answers 401 without a key, 403 to a Free key", async () => {
    expect((await t.app.inject({ url: "/api/v2/alerts/rules" })).statusCode).toBe(401);
    const refused = await call("GET", "/api/v2/alerts/rules", undefined, free);
    expect(refused.statusCode).toBe(403);
    expect(typeof refused.json().detail).toBe("string");
  });

  let webhookId: number;
  let telegramId: number;

  it("adds destinations of the four kinds, shows a webhook's secret once and seals every secret", async () => {
    const webhook = await call("POST", "/api/v2/alerts/destinations", {
      kind: "webhook",
      name: "ops",
      url: PUBLIC_HOOK,
    });
    expect(webhook.statusCode).toBe(201);
    expect(webhook.json()).toMatchObject({ kind: "webhook", status: "active", label: PUBLIC_HOOK });
    expect(webhook.json().secret).toMatch(/^whsec_/);
    webhookId = webhook.json().id;
    const token = "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345";
    const telegram = await call("POST", "/api/v2/alerts/destinations", {
      kind: "telegram",
      name: "phone",
      bot_token: token,
      chat_id: "-100123",
    });
    expect(telegram.statusCode).toBe(201);
    expect(telegram.json()).toMatchObject({ label: "Telegram chat -100123", secret: null });
    telegramId = telegram.json().id;
    for (const kind of ["discord", "slack"]) {
      const created = await call("POST", "/api/v2/alerts/destinations", {
        kind,
        name: kind,
        url: `https://93.184.216.34/${kind}/T000/B000/secretpart`,
      });
      expect(created.statusCode).toBe(201);
      expect(JSON.stringify(created.json())).not.toContain("secretpart");
    }
    const stored = await alertsDb(t.store.db).selectFrom("alert_destinations").select("sealed").execute();
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("secretpart");
    expect(everything).not.toContain(webhook.json().secret);
    const listed = await call("GET", "/api/v2/alerts/destinations");
    expect(listed.json().count).toBe(4);
    expect(JSON.stringify(listed.json())).not.toContain("whsec_");
  });

  it("refuses a destination with a 422 naming the field", async () => {
    const cases: Array<[unknown, unknown[]]> = [
      [{ kind: "webhook", name: "x", url: "https://127.0.0.1/hook" }, ["body", "url"]],
      [{ kind: "webhook", name: "x", url: "ftp://example.com/" }, ["body", "url"]],
      [{ kind: "webhook", name: "x" }, ["body", "url"]],
      [{ kind: "telegram", name: "x", bot_token: "nope", chat_id: "1" }, ["body", "bot_token"]],
      [{ kind: "telegram", name: "x", bot_token: "1:ABCdefGHIjklMNOpqrSTUvwx", chat_id: "me" }, ["body", "chat_id"]],
      [{ kind: "discord", name: "x", url: "https://93.184.216.34/other/1/2" }, ["body", "url"]],
      [{ kind: "slack", name: "x", url: PUBLIC_HOOK, bot_token: "1:x" }, ["body", "bot_token"]],
      [{ kind: "pager", name: "x" }, ["body", "kind"]],
    ];
    for (const [payload, loc] of cases) {
      const refused = await call("POST", "/api/v2/alerts/destinations", payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json().detail[0].loc, JSON.stringify(payload)).toEqual(loc);
      expect(refused.json().detail[0].msg.length).toBeGreaterThan(5);
    }
  });

  it("keeps to ALERTS_DESTINATIONS_PER_ACCOUNT", async () => {
    expect(
      (await call("POST", "/api/v2/alerts/destinations", { kind: "webhook", name: "5th", url: PUBLIC_HOOK }))
        .statusCode,
    ).toBe(201);
    const over = await call("POST", "/api/v2/alerts/destinations", { kind: "webhook", name: "6th", url: PUBLIC_HOOK });
    expect(over.statusCode).toBe(422);
    expect(over.json().detail[0].type).toBe("too_many_alerts");
  });

  let ruleId: number;

  it("adds rules of each kind, filters in one form and defaults applied", async () => {
    const wallet = await call("POST", "/api/v2/alerts/rules", {
      name: "my whale",
      kind: "wallet_trade",
      filters: { wallets: [WALLET.toUpperCase().replace("0X", "0x"), WALLET], side: "buy" },
      destination_ids: [telegramId, webhookId, webhookId],
    });
    expect(wallet.statusCode).toBe(201);
    expect(wallet.json()).toMatchObject({
      kind: "wallet_trade",
      status: "active",
      filters: { wallets: [WALLET], markets: [], categories: [], side: "buy", min_usd: 0 },
      destination_ids: [webhookId, telegramId].sort((a, b) => a - b),
    });
    ruleId = wallet.json().id;
    const market = await call("POST", "/api/v2/alerts/rules", {
      name: "my market",
      kind: "market_whale_trade",
      filters: { markets: [MARKET] },
      destination_ids: [webhookId],
    });
    expect(market.json().filters.min_usd).toBe(t.config.alerts.defaultMinUsd);
    const anywhere = await call("POST", "/api/v2/alerts/rules", {
      name: "sports whales",
      kind: "whale_trade",
      filters: { categories: ["Sports"], min_usd: 50_000 },
      destination_ids: [webhookId],
    });
    expect(anywhere.json().filters).toMatchObject({ categories: ["SPORTS"], min_usd: 50_000 });
    const over = await call(
      "POST",
      "/api/v2/alerts/rules",
      anywhere.json() && { name: "4th", kind: "whale_trade", destination_ids: [webhookId] },
    );
    expect(over.statusCode).toBe(422);
    expect(over.json().detail[0].type).toBe("too_many_alerts");
  });

  it("refuses a rule with a 422 naming the field", async () => {
    await call("DELETE", `/api/v2/alerts/rules/${ruleId + 2}`);
    const cases: Array<[unknown, unknown[]]> = [
      [{ name: "x", kind: "wallet_trade", destination_ids: [webhookId] }, ["body", "filters", "wallets"]],
      [
        { name: "x", kind: "wallet_trade", filters: { wallets: ["0x12"] }, destination_ids: [webhookId] },
        ["body", "filters", "wallets", 0],
      ],
      [
        {
          name: "x",
          kind: "market_whale_trade",
          filters: { markets: [MARKET], categories: ["sports"] },
          destination_ids: [webhookId],
        },
        ["body", "filters", "categories"],
      ],
      [
        { name: "x", kind: "whale_trade", filters: { categories: ["weather"] }, destination_ids: [webhookId] },
        ["body", "filters", "categories", 0],
      ],
      [{ name: "x", kind: "whale_trade", destination_ids: [999] }, ["body", "destination_ids"]],
      [{ name: "x", kind: "whale_trade", destination_ids: [] }, ["body", "destination_ids"]],
      [
        { name: "x", kind: "whale_trade", filters: { min_usd: -1 }, destination_ids: [webhookId] },
        ["body", "filters", "min_usd"],
      ],
      [{ name: "x", kind: "volume_spike", destination_ids: [webhookId] }, ["body", "kind"]],
      [{ name: "x", kind: "consensus_flip", destination_ids: [webhookId] }, ["body", "filters", "markets"]],
      [
        { name: "x", kind: "smart_new_market", filters: { side: "sell" }, destination_ids: [webhookId] },
        ["body", "filters", "side"],
      ],
      [
        { name: "x", kind: "price_move", filters: { markets: [MARKET] }, destination_ids: [webhookId] },
        ["body", "filters", "min_points"],
      ],
      [
        { name: "x", kind: "whale_trade", filters: { window_minutes: 5 }, destination_ids: [webhookId] },
        ["body", "filters", "window_minutes"],
      ],
      [
        { name: "x", kind: "whale_trade", filters: { cities: ["Bakhmut"] }, destination_ids: [webhookId] },
        ["body", "filters", "cities"],
      ],
      [
        { name: "x", kind: "territory_event", filters: { min_severity: "BAD" }, destination_ids: [webhookId] },
        ["body", "filters", "min_severity"],
      ],
      [
        { name: "x", kind: "territory_event", filters: { wallets: [WALLET] }, destination_ids: [webhookId] },
        ["body", "filters", "wallets"],
      ],
    ];
    for (const [payload, loc] of cases) {
      const refused = await call("POST", "/api/v2/alerts/rules", payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json().detail[0].loc, JSON.stringify(payload)).toEqual(loc);
    }
  });

  it("gets, changes, pauses, resumes and deletes a rule; another account sees none of it", async () => {
    expect((await call("GET", `/api/v2/alerts/rules/${ruleId}`)).json().name).toBe("my whale");
    expect((await call("GET", `/api/v2/alerts/rules/${ruleId}`, undefined, other)).statusCode).toBe(404);
    expect((await call("GET", "/api/v2/alerts/rules", undefined, other)).json()).toEqual({ rules: [], count: 0 });
    const changed = await call("PATCH", `/api/v2/alerts/rules/${ruleId}`, {
      filters: { wallets: [WALLET], min_usd: 100 },
    });
    expect(changed.json().filters).toMatchObject({ side: "both", min_usd: 100 });
    expect((await call("POST", `/api/v2/alerts/rules/${ruleId}/pause`)).json().status).toBe("paused");
    expect((await call("POST", `/api/v2/alerts/rules/${ruleId}/resume`)).json().status).toBe("active");
    const named = await call("DELETE", `/api/v2/alerts/destinations/${webhookId}`);
    expect(named.statusCode).toBe(422);
    expect(named.json().detail[0].msg).toMatch(/rules .* send to this destination/);
    expect((await call("DELETE", `/api/v2/alerts/rules/${ruleId}`, undefined, other)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/v2/alerts/rules/${ruleId}`)).json()).toEqual({ status: "deleted", id: ruleId });
    expect((await call("GET", `/api/v2/alerts/rules/${ruleId}`)).statusCode).toBe(404);
  });

  it("renames and disables a destination, then enables it again", async () => {
    const disabled = await call("PATCH", `/api/v2/alerts/destinations/${telegramId}`, {
      enabled: false,
      name: "old phone",
    });
    expect(disabled.json()).toMatchObject({
      name: "old phone",
      status: "disabled",
      disabled_reason: "disabled by the account",
    });
    const enabled = await call("PATCH", `/api/v2/alerts/destinations/${telegramId}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ status: "active", disabled_reason: null, disabled_at: null });
    expect((await call("PATCH", `/api/v2/alerts/destinations/${telegramId}`, {})).statusCode).toBe(422);
  });
});

describe("alert test fire to the four platforms' loopback stand-ins", () => {
  let t: TestApp;
  let platforms: ChatPlatforms;
  let key: string;

  beforeAll(async () => {
    platforms = await startChatPlatforms();
    t = await openTestApp({
      env: {
        ALERTS_ALLOW_LOOPBACK: "true",
        ALERTS_TELEGRAM_API_URL: platforms.urls.telegramApi,
        ALERTS_DISCORD_WEBHOOK_PREFIX: platforms.urls.discordPrefix,
        ALERTS_SLACK_WEBHOOK_PREFIX: platforms.urls.slackPrefix,
        ALERTS_DASHBOARD_URL: "https://pelagic.example",
      },
    });
    key = (await createKey(t.store.db, { account: "desk", plan: "premium", now: t.clock.now() })).key;
  });
  afterAll(async () => {
    await t?.close();
    await platforms?.close();
  });

  const call = (method: "GET" | "POST", url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { "x-api-key": key }, ...(payload ? { payload } : {}) });

  it("sends each platform its own request shape, signed for the webhook, and logs it", async () => {
    const made = {
      webhook: await call("POST", "/api/v2/alerts/destinations", {
        kind: "webhook",
        name: "w",
        url: platforms.urls.webhook,
      }),
      telegram: await call("POST", "/api/v2/alerts/destinations", {
        kind: "telegram",
        name: "t",
        bot_token: "42:AAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        chat_id: "-1001",
      }),
      discord: await call("POST", "/api/v2/alerts/destinations", {
        kind: "discord",
        name: "d",
        url: `${platforms.urls.discordPrefix}1/tok`,
      }),
      slack: await call("POST", "/api/v2/alerts/destinations", {
        kind: "slack",
        name: "s",
        url: `${platforms.urls.slackPrefix}T1/B1/x`,
      }),
    };
    platforms.setWebhookSecret(made.webhook.json().secret);
    for (const [platform, created] of Object.entries(made)) {
      expect(created.statusCode, platform).toBe(201);
      const fired = await call("POST", `/api/v2/alerts/destinations/${created.json().id}/test`);
      expect(fired.statusCode, fired.body).toBe(200);
      expect(fired.json()).toMatchObject({ status: "delivered", attempts: 1, rule_id: null, alert: { test: true } });
    }
    const [webhook] = await platforms.waitFor("webhook", 1);
    expect(webhook!.signed).toBe(true);
    expect(webhook!.body).toMatchObject({
      type: "alert.test",
      data: { trade: { side: "BUY", outcome: "YES", usd: 620 } },
    });
    const [telegram] = await platforms.waitFor("telegram", 1);
    expect(telegram!.path).toBe("/telegram/bot42:AAAAAAAAAAAAAAAAAAAAAAAAAAAA/sendMessage");
    expect(telegram!.body).toMatchObject({ chat_id: "-1001", parse_mode: "HTML" });
    expect((telegram!.body as { text: string }).text).toContain("https://pelagic.example/#/wallet/0x5a5a");
    const [discord] = await platforms.waitFor("discord", 1);
    expect((discord!.body as { embeds: Array<{ fields: unknown[] }> }).embeds[0]!.fields).toHaveLength(4);
    const [slack] = await platforms.waitFor("slack", 1);
    expect((slack!.body as { blocks: Array<{ type: string }> }).blocks.map((b) => b.type)).toEqual([
      "header",
      "section",
      "context",
    ]);
    const log = await call("GET", "/api/v2/alerts/deliveries?limit=10");
    expect(log.json().count).toBe(4);
    expect(log.json().deliveries.every((d: { status: string }) => d.status === "delivered")).toBe(true);
  });

  it("disables a destination that answers gone, and says why", async () => {
    const made = await call("POST", "/api/v2/alerts/destinations", {
      kind: "discord",
      name: "gone",
      url: `${platforms.urls.discordPrefix}2/tok`,
    });
    platforms.setGone("discord", true);
    const fired = await call("POST", `/api/v2/alerts/destinations/${made.json().id}/test`);
    platforms.setGone("discord", false);
    expect(fired.json()).toMatchObject({ status: "failed", last_status: 404 });
    const destination = await call("GET", `/api/v2/alerts/destinations/${made.json().id}`);
    expect(destination.json().status).toBe("disabled");
    expect(destination.json().disabled_reason).toMatch(/answered 404/);
  });

  it("records a failed test fire with the receiver's status, without retrying it", async () => {
    const made = await call("POST", "/api/v2/alerts/destinations", {
      kind: "slack",
      name: "busy",
      url: `${platforms.urls.slackPrefix}T2/B2/x`,
    });
    platforms.failNext("slack", 1, 429, 30);
    const fired = await call("POST", `/api/v2/alerts/destinations/${made.json().id}/test`);
    expect(fired.json()).toMatchObject({ status: "failed", last_status: 429, last_error: "HTTP 429", attempts: 1 });
    expect((await call("GET", `/api/v2/alerts/destinations/${made.json().id}`)).json().status).toBe("active");
  });

  /** A rule's delivery to a new destination, queued as the matcher queues one; its row, read again on each call. */
  const queued = async (destination: object, messageId: string) => {
    const made = await call("POST", "/api/v2/alerts/destinations", destination);
    if (made.json().secret) platforms.setWebhookSecret(made.json().secret);
    const rule = await call("POST", "/api/v2/alerts/rules", {
      name: "r",
      kind: "whale_trade",
      destination_ids: [made.json().id],
    });
    const sample = (await call("GET", "/api/v2/alerts/deliveries?limit=1")).json().deliveries[0].alert;
    const { id } = await alertsDb(t.store.db)
      .insertInto("alert_deliveries")
      .values({
        account: "desk",
        rule_id: rule.json().id,
        destination_id: made.json().id,
        event_key: `chain:${messageId}`,
        message_id: messageId,
        payload: JSON.stringify({ ...sample, test: false }),
        status: "pending",
        attempts: 0,
        next_attempt_at: 0,
        last_status: null,
        last_error: null,
        created_at_ms: t.clock.nowMs(),
        finished_at_ms: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return () =>
      alertsDb(t.store.db).selectFrom("alert_deliveries").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  };
  /** The row once the worker made `attempts` attempts (woken through the matcher's channel). */
  const settled = async (row: Awaited<ReturnType<typeof queued>>, attempts: number) => {
    for (let i = 0; i < 200 && Number((await row()).attempts) < attempts; i++) {
      await t.platform.pubsub.publish("alerts:due", "1");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return row();
  };

  it("retries a rule's delivery no sooner than the receiver's Retry-After, with the same webhook-id, then delivers it", async () => {
    const row = await queued({ kind: "webhook", name: "later", url: `${platforms.urls.webhook}/later` }, "msg_retry");
    platforms.failNext("webhook", 1, 429, 30);
    const first = await settled(row, 1);
    expect(first).toMatchObject({ status: "pending", last_status: 429 });
    expect(Number(first.next_attempt_at)).toBeGreaterThanOrEqual(t.clock.now() + 30);
    t.clock.advance(29_000);
    await t.platform.pubsub.publish("alerts:due", "1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Number((await row()).attempts)).toBe(1);
    t.clock.advance(2_000);
    expect(await settled(row, 2)).toMatchObject({ status: "delivered", attempts: 2, last_status: 200 });
    const got = platforms.received.filter((r) => r.headers["webhook-id"] === "msg_retry");
    expect(got).toHaveLength(1);
    expect(got[0]!.signed).toBe(true);
  });

  it("waits as long as Telegram's 429 body says when it sends no Retry-After", async () => {
    const row = await queued(
      { kind: "telegram", name: "busy chat", bot_token: "43:AAAAAAAAAAAAAAAAAAAAAAAAAAAA", chat_id: "-43" },
      "msg_telegram",
    );
    platforms.failNext(
      "telegram",
      1,
      429,
      undefined,
      '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 17","parameters":{"retry_after":17}}',
    );
    const first = await settled(row, 1);
    expect(first).toMatchObject({ status: "pending", last_status: 429 });
    expect(Number(first.next_attempt_at)).toBeGreaterThanOrEqual(t.clock.now() + 17);
    t.clock.advance(18_000);
    expect(await settled(row, 2)).toMatchObject({ status: "delivered", attempts: 2 });
  });
});
