/**
 * Alerts end to end (issue 51) on the simulated venue trading live: `pelagic serve` (role all on SQLite; one
 * `--role ingest` and two `--role api` processes on PostgreSQL and Redis), a rule made through the HTTP API on the
 * demo world's busiest whales sending to the four platforms' loopback stand-ins (src/sim/servers/chat-platforms.ts).
 * Checked, once trading rests: every fill of those wallets stored after the rule was made has exactly one delivery
 * per destination (nothing lost, nothing twice) although the ingest process was killed with SIGKILL mid-way and
 * restarted; each platform got one correct message per fill in its own shape (the webhook's signed, its data the
 * stored fill), Telegram's paced to a message a second; Slack, down for its first requests, got its messages once it
 * came back. The wait for the queue to drain lasts while deliveries finish (a backlog piled up during a slow restart
 * drains at Telegram's pace), failing when none does for a minute. The fill-to-receiver times are printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { alertsDb } from "../src/alerts/tables.js";
import { SOURCES } from "../src/ingest/sources.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import { startChatPlatforms, type ChatPlatforms } from "../src/sim/servers/chat-platforms.js";
import { startSimVenue, type SimVenue } from "../src/sim/servers/index.js";
import { blockAt, generateWorld } from "../src/sim/world/index.js";
import { readCheckpoint } from "../src/store/checkpoints.js";
import type { Store } from "../src/store/database.js";
import { fromMicro } from "../src/venue/units.js";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName } from "./support/backends.js";
import { spawnPelagic, type Running } from "./support/cli.js";
import { until } from "./support/live-clients.js";
import { openProcessStore, processStoreKinds, type ProcessStore } from "./support/process-stores.js";
import { historyEnd } from "./support/world-end.js";

/** Two whales trading at 2 matches a second: few enough fills that the chats paced to a message a second (Telegram, Slack) drain them in seconds. */
const WATCHED = 2;
const blockOf = (cursor: string | undefined) => Number(/^block:(\d+)$/.exec(cursor ?? "")?.[1] ?? Number.NaN);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until nothing is pending; fails only when nothing finished for `stallMs`. */
async function untilDrained(pending: () => Promise<number>, stallMs: number): Promise<void> {
  let fewest = Number.POSITIVE_INFINITY;
  let progressAt = Date.now();
  for (;;) {
    const left = await pending();
    if (left === 0) return;
    if (left < fewest) [fewest, progressAt] = [left, Date.now()];
    else if (Date.now() - progressAt > stallMs)
      throw new Error(`never happened: no delivery pending (${left} pending, none finished in ${stallMs / 1000} s)`);
    await sleep(250);
  }
}

describe.each(processStoreKinds.filter((kind) => kind === "sqlite" || TEST_REDIS_URL))(
  "alerts end to end on %s",
  (kind) => {
    const scaled = kind === "postgres";
    const prefix = `${uniqueName("pelagic_alerts")}:`;
    const processes: Running[] = [];
    let venue: SimVenue | undefined;
    let platforms: ChatPlatforms | undefined;
    let processStore: ProcessStore | undefined;
    let store: Store | undefined;

    afterAll(async () => {
      for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
      await Promise.all(processes.map((p) => p.exited));
      await store?.close();
      await venue?.close();
      await platforms?.close();
      await processStore?.dispose();
      if (scaled) await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
    });

    it("delivers one correct message per fill and destination, through a killed ingest and a receiver that was down", async () => {
      const nowSeconds = Math.floor(Date.now() / 1000);
      let frozenMs: number | null = null;
      const world = generateWorld({
        seed: 51,
        end: historyEnd(nowSeconds),
        markets: 20,
        wallets: 120,
        fills: 2_500,
        days: 10,
      });
      venue = await startSimVenue({
        world,
        live: { matchesPerSecond: 2, from: nowSeconds },
        liveTickMs: 100,
        clockMs: () => frozenMs ?? Date.now(),
      });
      platforms = await startChatPlatforms();
      processStore = await openProcessStore(kind);
      const env = {
        ...processStore.env,
        ...simIngestEnv(venue, {
          INGEST_POLL_SECONDS: "1",
          INGEST_READ_THREAD: "false",
          VENUE_RPC_REQUESTS_PER_SECOND: "1000",
          ISW_MONITOR: "false",
        }),
        ...(scaled ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {}),
        LOG_LEVEL: "info",
        ISW_WEBHOOK_KEY: Buffer.alloc(32, 51).toString("base64"),
        ISW_WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1,1,1",
        ALERTS_ALLOW_LOOPBACK: "true",
        ALERTS_TELEGRAM_API_URL: platforms.urls.telegramApi,
        ALERTS_DISCORD_WEBHOOK_PREFIX: platforms.urls.discordPrefix,
        ALERTS_SLACK_WEBHOOK_PREFIX: platforms.urls.slackPrefix,
        ALERTS_RULES_CHECK_MS: "200",
        // The killed process's claims are retried once their lease ends: 3 + 12 s instead of 10 + 30.
        ALERTS_TIMEOUT_SECONDS: "3",
        ALERTS_LEASE_MARGIN_SECONDS: "12",
        RATE_PREMIUM_PER_MINUTE: "100000",
      };
      const serve = async (role: "all" | "api" | "ingest") => {
        const p = spawnPelagic(["serve", "--role", role, "--port", "0"], env);
        processes.push(p);
        const line = await p
          .waitFor((l) => l.msg === "pelagic serving", 240_000)
          .catch((error: Error) => {
            throw new Error(`${role}: ${error.message}; last lines: ${JSON.stringify(p.lines.slice(-5))}`);
          });
        return { p, url: line.url as string };
      };
      let ingest = await serve(scaled ? "ingest" : "all");
      const apis = scaled ? await Promise.all([serve("api"), serve("api")]) : [ingest];
      store = await processStore.open();
      const db = store.db;
      const { key } = await createKey(db, { account: "desk", plan: "premium", now: nowSeconds });
      const api = (i: number, method: string, path: string, body?: object) =>
        fetch(`${apis[i % apis.length]!.url}${path}`, {
          method,
          headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      await until(
        "ready",
        async () => ((await (await api(0, "GET", "/api/v1/health")).json()) as { ready: boolean }).ready,
        180_000,
      );

      // The busiest whales of the world (Smart Money first), watched by one rule sending to the four platforms.
      const whales = await db
        .selectFrom("wallet_stats")
        .select("wallet")
        .orderBy("is_smart", "desc")
        .orderBy("total_trades", "desc")
        .limit(WATCHED)
        .execute();
      const destinations: Record<string, number> = {};
      const made = async (i: number, body: object) => {
        const response = await api(i, "POST", "/api/v2/alerts/destinations", body);
        expect(response.status, await response.clone().text()).toBe(201);
        return (await response.json()) as { id: number; secret: string | null };
      };
      const webhook = await made(0, { kind: "webhook", name: "ops", url: platforms.urls.webhook });
      platforms.setWebhookSecret(webhook.secret as string);
      destinations.webhook = webhook.id;
      destinations.telegram = (
        await made(1, { kind: "telegram", name: "phone", bot_token: "51:AAAAAAAAAAAAAAAAAAAAAAAAAAAA", chat_id: "-51" })
      ).id;
      destinations.discord = (
        await made(0, { kind: "discord", name: "desk", url: `${platforms.urls.discordPrefix}51/token` })
      ).id;
      destinations.slack = (
        await made(1, { kind: "slack", name: "team", url: `${platforms.urls.slackPrefix}T51/B51/secret` })
      ).id;
      // Slack is down for its first requests: those alerts reach it once it is back, on the retry schedule.
      platforms.failNext("slack", 4, 503);
      const createdAt = Math.floor(Date.now() / 1000);
      const rule = await api(1, "POST", "/api/v2/alerts/rules", {
        name: "busy whales",
        kind: "wallet_trade",
        filters: { wallets: whales.map((w) => w.wallet) },
        destination_ids: Object.values(destinations),
      });
      expect(rule.status, await rule.clone().text()).toBe(201);
      const ruleId = ((await rule.json()) as { id: number }).id;
      const from = createdAt + 2;

      await platforms.waitFor("webhook", 3, 60_000);
      // The ingest process killed mid-trading, and started again.
      ingest.p.child.kill("SIGKILL");
      await ingest.p.exited;
      await sleep(1_000);
      ingest = await serve(scaled ? "ingest" : "all");
      if (!scaled) apis[0] = ingest;
      const before = platforms.received.filter((r) => r.platform === "webhook").length;
      await platforms.waitFor("webhook", before + 3, 60_000);
      // Trading goes on until the store holds enough of the whales' fills for the checks below, however quick the
      // restart (at two matches a second, a quick one leaves few).
      // The watched whales' fills since the rule was made.
      const watchedFills = () =>
        db
          .selectFrom("fills")
          .where(
            "wallet",
            "in",
            whales.map((w) => w.wallet),
          )
          .where("ts", ">=", from);
      const watchedCount = async () =>
        Number(
          (
            await watchedFills()
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      await until("eight of the whales' fills stored", async () => (await watchedCount()) >= 8, 120_000);

      // Trading rests; the ingest reaches the resting head; every delivery is sent.
      frozenMs = Date.now();
      const head = blockAt(Math.floor(frozenMs / 1000));
      await until(
        "the chain follower at the resting head",
        async () => blockOf((await readCheckpoint(db, SOURCES.chain))?.cursor) >= head,
        60_000,
      );
      const deliveries = () =>
        alertsDb(db).selectFrom("alert_deliveries").selectAll().where("rule_id", "=", ruleId).execute();
      // As long as it takes while deliveries keep finishing: what piled up while the ingest was down (a slow restart
      // on a busy machine) drains at Telegram's pace, a message a second. The last batches' matches count until a
      // delivery worker has fanned them out into deliveries (alert_matches empty).
      const unsent = async () => {
        const matches = await alertsDb(db).selectFrom("alert_matches").select("id").execute();
        return matches.length + (await deliveries()).filter((d) => d.status === "pending").length;
      };
      await untilDrained(unsent, 60_000);

      const fills = await watchedFills()
        .select(["fill_key", "wallet", "side", "price", "usd", "size", "tx_hash", "ts"])
        .execute();
      expect(fills.length).toBeGreaterThan(5);
      const stored = await deliveries();
      const fresh = stored.filter((d) => fills.some((f) => f.fill_key === d.event_key));
      // Nothing lost: each fill once per destination, delivered.
      for (const destination of Object.values(destinations)) {
        const keys = fresh.filter((d) => Number(d.destination_id) === destination).map((d) => d.event_key);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.sort()).toEqual(fills.map((f) => f.fill_key).sort());
      }
      expect(fresh.every((d) => d.status === "delivered")).toBe(true);
      expect(stored.some((d) => Number(d.destination_id) === destinations.slack && Number(d.attempts) > 1)).toBe(true);
      expect(stored.every((d) => d.status === "delivered")).toBe(true);

      // Each platform got one message per delivery, in its shape; the webhook's are signed and say the stored fill.
      const all = stored.length;
      const got = (platform: "webhook" | "telegram" | "discord" | "slack") =>
        platforms!.received.filter((r) => r.platform === platform);
      const webhooks = got("webhook");
      expect(new Set(webhooks.map((r) => r.headers["webhook-id"])).size).toBe(all / 4);
      expect(webhooks.every((r) => r.signed)).toBe(true);
      for (const platform of ["telegram", "discord", "slack"] as const) {
        // A role-all process killed between a receiver's answer and its record may send one again (at least once).
        if (scaled) expect(got(platform)).toHaveLength(all / 4);
        else expect(got(platform).length - all / 4).toBeLessThanOrEqual(1);
      }
      // Each chat is paced to the platform's limit: Telegram a message a second. Across processes (pacing.test.ts) a
      // request's arrival moves with how busy its process is, more than a tenth of a second on a loaded machine.
      if (!scaled) {
        const at = got("telegram").map((r) => r.atMs);
        expect(Math.min(...at.slice(1).map((t, i) => t - at[i]!))).toBeGreaterThanOrEqual(900);
      }
      const byKey = new Map(fills.map((f) => [f.fill_key, f]));
      for (const d of fresh.filter((d) => Number(d.destination_id) === destinations.webhook)) {
        const message = webhooks.find((r) => r.headers["webhook-id"] === d.message_id);
        const fill = byKey.get(d.event_key)!;
        expect(message?.body).toMatchObject({
          type: "alert.wallet_trade",
          data: {
            trade: {
              wallet: fill.wallet,
              side: fill.side,
              price: fill.price,
              usd: fromMicro(fill.usd),
              tx_hash: fill.tx_hash,
            },
          },
        });
        const telegram = got("telegram").find((r) => (r.body as { text: string }).text.includes(fill.wallet));
        expect(telegram?.body).toMatchObject({ chat_id: "-51", parse_mode: "HTML" });
      }
      const latencies = fresh
        .filter((d) => Number(d.destination_id) === destinations.webhook)
        .map((d) => webhooks.find((r) => r.headers["webhook-id"] === d.message_id)!.atMs - Number(d.created_at_ms))
        .sort((a, b) => a - b);
      console.log(
        `alerts end to end on ${kind}: ${fills.length} fills alerted, stored-to-receiver p50 ${latencies[Math.floor(latencies.length / 2)]} ms, max ${latencies.at(-1)} ms`,
      );
    }, 600_000);
  },
);
