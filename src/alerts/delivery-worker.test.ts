/**
 * The delivery worker's housekeeping, on every backend: deliveries that finished more than
 * ALERTS_DELIVERIES_KEPT_DAYS ago are deleted, the recent ones and the pending ones kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { SecretBox } from "./webhooks/secret-box.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { DeliveryWorker } from "./delivery-worker.js";
import { alertsDb, type DeliveryStatus } from "./tables.js";

const DAY_MS = 86_400_000;

describe.each(storeBackends)("the alert delivery worker's sweep on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  const clock = new ManualClock(1_800_000_000_000);

  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("deletes what finished more than ALERTS_DELIVERIES_KEPT_DAYS ago, and keeps the rest", async () => {
    const row = (key: string, status: DeliveryStatus, finishedDaysAgo: number | null) => ({
      account: "a",
      rule_id: 1,
      destination_id: 1,
      event_key: key,
      message_id: key,
      payload: "{}",
      status,
      attempts: 1,
      next_attempt_at: 0,
      last_status: null,
      last_error: null,
      created_at_ms: clock.nowMs() - 40 * DAY_MS,
      finished_at_ms: finishedDaysAgo === null ? null : clock.nowMs() - finishedDaysAgo * DAY_MS,
    });
    await alertsDb(store.db)
      .insertInto("alert_deliveries")
      .values([
        row("old-delivered", "delivered", 31),
        row("old-failed", "failed", 40),
        row("recent", "delivered", 29),
        row("waiting", "pending", null),
      ])
      .execute();
    const worker = new DeliveryWorker({
      store,
      clock,
      logger: createLogger("silent"),
      config: loadConfig({ ALERTS_DELIVERIES_KEPT_DAYS: "30" }),
      box: () => new SecretBox(Buffer.alloc(32, 1)),
    });
    expect(await worker.sweep()).toBe(2);
    const kept = await alertsDb(store.db).selectFrom("alert_deliveries").select("event_key").orderBy("id").execute();
    expect(kept.map((d) => d.event_key)).toEqual(["recent", "waiting"]);
    // Once an hour.
    expect(await worker.sweep()).toBe(0);
  });
});
