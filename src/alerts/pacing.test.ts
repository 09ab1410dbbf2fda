/**
 * The chat platforms' paces held across processes, on the memory platform and on Redis: two delivery workers (two
 * API processes) share one platform's limiter and work one queue of deliveries to one Telegram chat and one Slack
 * webhook (the loopback stand-ins); each receives at most a message a second, and all arrive.
 */
import { afterEach, describe, expect, it } from "vitest";
import { platformBackends, platformsPerTest, storeBackends } from "../../test/support/backends.js";
import { until } from "../../test/support/live-clients.js";
import { loadConfig } from "../config/index.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { systemClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { startChatPlatforms, type ChatPlatforms } from "../sim/servers/chat-platforms.js";
import { sampleAlert } from "./delivery-log.js";
import { insertDeliveries, ruleDeliveries } from "./delivery-rows.js";
import { DeliveryWorker } from "./delivery-worker.js";
import { createDestination } from "./destinations.js";
import { alertsDb } from "./tables.js";

const open = platformsPerTest();
const MESSAGES = 4;

describe.each(platformBackends)("alert pacing across processes on $kind", (backend) => {
  let platforms: ChatPlatforms | undefined;
  let disposeStore: (() => Promise<void>) | undefined;
  const workers: DeliveryWorker[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await platforms?.close();
    await disposeStore?.();
  });

  it("sends a chat and a Slack webhook at most a message a second, whichever process sends", async () => {
    platforms = await startChatPlatforms();
    const opened = await storeBackends[0]!.open();
    const store = opened.store;
    disposeStore = opened.dispose;
    const platform = await open(backend, systemClock);
    const config = loadConfig({
      ALERTS_ALLOW_LOOPBACK: "true",
      ALERTS_POLL_MS: "50",
      ALERTS_TELEGRAM_API_URL: platforms.urls.telegramApi,
      ALERTS_SLACK_WEBHOOK_PREFIX: platforms.urls.slackPrefix,
    });
    const box = new SecretBox(Buffer.alloc(32, 3));
    const policy = { resolve: async () => [], allowLoopback: true };
    const now = systemClock.now();
    const destination = async (input: object) =>
      (
        await createDestination(
          store,
          { account: "desk", destination: input as never, box, now, settings: config.alerts },
          policy,
        )
      ).row.id;
    const telegram = await destination({
      kind: "telegram",
      name: "t",
      bot_token: "7:AAAAAAAAAAAAAAAAAAAAAAAA",
      chat_id: "-7",
    });
    const slack = await destination({ kind: "slack", name: "s", url: `${platforms.urls.slackPrefix}T7/B7/secret` });
    const payload = JSON.stringify(sampleAlert(config.alerts.dashboardUrl));
    const rows = Array.from({ length: MESSAGES }, (_, i) =>
      ruleDeliveries({ account: "desk", id: 1 }, [telegram, slack], {
        key: `e${i}`,
        payload,
        nowMs: systemClock.nowMs(),
      }),
    ).flat();
    expect(await insertDeliveries(alertsDb(store.db), rows)).toBe(2 * MESSAGES);
    for (let i = 0; i < 2; i++) {
      const worker = new DeliveryWorker({
        store,
        clock: systemClock,
        logger: createLogger("silent"),
        config,
        box: () => box,
        rateLimiter: platform.rateLimiter,
      });
      workers.push(worker);
      await worker.start();
    }
    const [telegramMessages, slackMessages] = await Promise.all([
      platforms.waitFor("telegram", MESSAGES, 20_000),
      platforms.waitFor("slack", MESSAGES, 20_000),
    ]);
    for (const messages of [telegramMessages, slackMessages]) {
      expect(messages).toHaveLength(MESSAGES);
      const at = messages.map((m) => m.atMs).sort((a, b) => a - b);
      // Each place is taken when the send starts: the requests arrive a second apart, less their own jitter.
      expect(Math.min(...at.slice(1).map((t, i) => t - at[i]!))).toBeGreaterThanOrEqual(900);
    }
    await until(
      "every delivery recorded delivered",
      async () =>
        (await alertsDb(store.db).selectFrom("alert_deliveries").select("status").execute()).every(
          (d) => d.status === "delivered",
        ),
      5_000,
    );
  }, 30_000);
});
