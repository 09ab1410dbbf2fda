/**
 * Sends the stored deliveries. A delivery is stored in the probe's own transaction with its event, so nothing is
 * lost to a restart: the dispatcher reads what is due from the table, claims it with a lease (one sender per
 * attempt; a crash mid-send retries it once the lease ends), sends it signed (signing.ts), and records the outcome. Only a 2xx answer within
 * ISW_WEBHOOK_TIMEOUT_SECONDS is a success; 410 disables the endpoint and cancels its other deliveries; any other
 * answer or error waits for the next step of ISW_WEBHOOK_RETRY_SCHEDULE (up to 10% jitter, never before a
 * Retry-After) until the schedule ends. Every attempt carries the same webhook-id (one per event), so a
 * receiver that saw an attempt succeed can drop a repeat.
 */
import { parseRetrySchedule } from "../../config/isw-settings.js";
import type { Config } from "../../config/index.js";
import type { Clock } from "../../platform/clock.js";
import type { Logger } from "../../platform/logger.js";
import { metrics } from "../../platform/metrics.js";
import { parseRetryAfter } from "../../venue/http.js";
import type { Store } from "../../store/database.js";
import { iswDb, type IswDb } from "../tables.js";
import type { SecretBox } from "./secret-box.js";
import { postWebhook, type AttemptAnswer } from "./send.js";
import { signedHeaders } from "./signing.js";
import { systemResolver, type Resolver, type TargetPolicy } from "./ssrf.js";

/** A Retry-After asking for longer than a day is held to a day. */
const MAX_RETRY_AFTER_SECONDS = 86_400;
const LEASE_MARGIN_SECONDS = 60;

export interface DispatcherDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly box: SecretBox;
  readonly isw: Config["isw"];
  readonly resolve?: Resolver;
  readonly random?: () => number;
  /** How often the loop looks for due deliveries when nothing wakes it; default 1 s. */
  readonly idlePollMs?: number;
}

interface DueDelivery {
  id: number;
  endpoint_id: number;
  message_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret_box: string;
  endpoint_status: string;
}

type Outcome = { kind: "delivered"; status: number } | { kind: "gone"; status: number } | FailedAttempt;

export interface FailedAttempt {
  kind: "failed";
  status: number | null;
  error: string;
  retryAfterSeconds: number | null;
}

/** A receiver's answer that is neither a success nor gone: what is recorded, and the Retry-After it asked for. */
export function failedAttempt(answer: AttemptAnswer, nowMs: number): FailedAttempt {
  const retryAfterMs = parseRetryAfter(answer.retryAfter, nowMs);
  const error =
    answer.status >= 300 && answer.status < 400
      ? `HTTP ${answer.status} (redirects are not followed)`
      : `HTTP ${answer.status}`;
  return {
    kind: "failed",
    status: answer.status,
    error,
    retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
  };
}

/**
 * Seconds before the attempt after `attempts` failed ones: the schedule's step with up to 10% jitter, never before
 * a Retry-After (held to a day).
 */
export function retryWaitSeconds(
  schedule: readonly number[],
  attempts: number,
  retryAfterSeconds: number | null,
  random: () => number,
): number {
  const wait = Math.ceil((schedule[attempts] ?? 0) * (1 + 0.1 * random()));
  return retryAfterSeconds === null ? wait : Math.max(wait, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS));
}

export class WebhookDispatcher {
  private readonly db: IswDb;
  private readonly schedule: number[];
  private readonly policy: TargetPolicy;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(private readonly deps: DispatcherDeps) {
    this.db = iswDb(deps.store.db);
    this.schedule = parseRetrySchedule(deps.isw.webhookRetrySchedule);
    this.policy = { resolve: deps.resolve ?? systemResolver, allowLoopback: deps.isw.webhookAllowLoopback };
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for due deliveries now (the probe calls it after storing events). */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        while ((await this.deliverDue()) > 0 && !this.stopped);
      } catch (error) {
        this.deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "webhook dispatch failed; retrying",
        );
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.idlePollMs ?? 1_000);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  /** One pass: sends what is due (up to ISW_WEBHOOK_CONCURRENCY at once) and records each outcome; returns how many. */
  async deliverDue(): Promise<number> {
    const now = this.deps.clock.now();
    const concurrency = this.deps.isw.webhookConcurrency;
    const due: DueDelivery[] = await this.db
      .selectFrom("isw_webhook_deliveries as d")
      .innerJoin("isw_webhook_endpoints as e", "e.id", "d.endpoint_id")
      .select([
        "d.id",
        "d.endpoint_id",
        "d.message_id",
        "d.payload",
        "d.attempts",
        "e.url",
        "e.secret_box",
        "e.status as endpoint_status",
      ])
      .where("d.status", "=", "pending")
      .where("d.next_attempt_at", "<=", now)
      .orderBy("d.next_attempt_at")
      .orderBy("d.id")
      .limit(concurrency * 8)
      .execute();
    if (due.length === 0) return 0;
    const lease = now + this.deps.isw.webhookTimeoutSeconds + LEASE_MARGIN_SECONDS;
    const claimed: DueDelivery[] = [];
    for (const delivery of due) {
      // A claim moves the delivery past the lease only if nobody moved it since it was read: one sender per attempt.
      const claim = await this.db
        .updateTable("isw_webhook_deliveries")
        .set({ next_attempt_at: lease })
        .where("id", "=", delivery.id)
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) === 1) claimed.push(delivery);
    }
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) await this.attempt(claimed[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, claimed.length) }, worker));
    return claimed.length;
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    if (delivery.endpoint_status !== "active") {
      await this.db
        .updateTable("isw_webhook_deliveries")
        .set({ status: "cancelled", finished_at: this.deps.clock.now() })
        .where("id", "=", delivery.id)
        .execute();
      metrics.webhookDeliveries.inc({ outcome: "cancelled" });
      return;
    }
    const outcome = await this.send(delivery);
    await this.record(delivery, outcome);
    metrics.webhookDeliveries.inc({ outcome: outcome.kind });
  }

  private async send(delivery: DueDelivery): Promise<Outcome> {
    let answer: AttemptAnswer;
    try {
      const secret = this.deps.box.open(delivery.secret_box);
      const headers = signedHeaders(secret, delivery.message_id, this.deps.clock.now(), delivery.payload);
      answer = await postWebhook(
        new URL(delivery.url),
        delivery.payload,
        headers,
        this.policy,
        this.deps.isw.webhookTimeoutSeconds * 1000,
      );
    } catch (error) {
      return {
        kind: "failed",
        status: null,
        error: error instanceof Error ? error.message : String(error),
        retryAfterSeconds: null,
      };
    }
    if (answer.status >= 200 && answer.status < 300) return { kind: "delivered", status: answer.status };
    if (answer.status === 410) return { kind: "gone", status: answer.status };
    return failedAttempt(answer, this.deps.clock.nowMs());
  }

  private async record(delivery: DueDelivery, outcome: Outcome): Promise<void> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + 1;
    const log = { delivery: delivery.id, endpoint: delivery.endpoint_id, host: new URL(delivery.url).host, attempts };
    if (outcome.kind === "delivered") {
      await this.db
        .updateTable("isw_webhook_deliveries")
        .set({ status: "delivered", attempts, last_status: outcome.status, last_error: null, finished_at: now })
        .where("id", "=", delivery.id)
        .execute();
      this.deps.logger.debug(log, "webhook delivered");
      return;
    }
    if (outcome.kind === "gone") {
      await this.deps.store.transaction(async (tx) => {
        const db = iswDb(tx.db);
        await db
          .updateTable("isw_webhook_deliveries")
          .set({
            status: "failed",
            attempts,
            last_status: 410,
            last_error: "HTTP 410: endpoint disabled",
            finished_at: now,
          })
          .where("id", "=", delivery.id)
          .execute();
        await db
          .updateTable("isw_webhook_endpoints")
          .set({ status: "disabled", disabled_at: now, disabled_reason: "the receiver answered 410 Gone" })
          .where("id", "=", delivery.endpoint_id)
          .execute();
        await db
          .updateTable("isw_webhook_deliveries")
          .set({ status: "cancelled", finished_at: now })
          .where("endpoint_id", "=", delivery.endpoint_id)
          .where("status", "=", "pending")
          .execute();
      });
      this.deps.logger.info(log, "webhook endpoint answered 410 Gone: disabled");
      return;
    }
    const final = attempts >= this.schedule.length;
    const wait = retryWaitSeconds(this.schedule, attempts, outcome.retryAfterSeconds, this.deps.random ?? Math.random);
    await this.db
      .updateTable("isw_webhook_deliveries")
      .set({
        status: final ? "failed" : "pending",
        attempts,
        last_status: outcome.status,
        last_error: outcome.error.slice(0, 500),
        next_attempt_at: now + wait,
        finished_at: final ? now : null,
      })
      .where("id", "=", delivery.id)
      .execute();
    this.deps.logger.debug({ ...log, status: outcome.status, error: outcome.error, final }, "webhook attempt failed");
  }
}
