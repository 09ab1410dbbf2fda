/**
 * Sends the stored alert deliveries, in every process that serves the API, after fanning out the matcher's stored
 * matches into deliveries (alert-matches.ts). What is due is claimed with a lease in
 * one statement (it moves `next_attempt_at` past the attempt's time-out only where nobody moved it; PostgreSQL skips
 * rows another process is claiming: one sender per attempt across processes; a crash mid-send retries once the lease
 * ends), paced per destination to its platform's limit across processes (pacing.ts), formatted
 * for its destination (formatters.ts), sent (at most ALERTS_CONCURRENCY at once, each on its own: a slow receiver
 * delays only its own) over the territory webhooks' checked connection (SSRF refusal pinned to
 * the connected address, no redirects), and its outcome recorded: a 2xx is delivered; an answer that means gone
 * (formatters.ts, GONE_STATUSES) disables the destination with its reason, cancels its other pending deliveries and
 * fails this one; anything else waits for the next step of ISW_WEBHOOK_RETRY_SCHEDULE (never before a Retry-After)
 * until the schedule ends. A test fire is tried once. The worker looks every ALERTS_POLL_MS, and at once when the
 * matcher announces new matches on ALERTS_DUE_CHANNEL.
 */
import { cancelPendingDeliveries } from "./delivery-rows.js";
import { parseRetrySchedule } from "../config/isw-settings.js";
import type { Config } from "../config/index.js";
import type { SecretBox } from "./webhooks/secret-box.js";
import { failedAttempt, postWebhook, retryWaitSeconds, type FailedAttempt } from "./webhooks/send.js";
import { systemResolver, type Resolver, type TargetPolicy } from "./webhooks/ssrf.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import { metrics } from "../platform/metrics.js";
import type { PubSub } from "../platform/pubsub.js";
import type { RateLimiter } from "../platform/rate-limiter.js";
import type { Store } from "../store/database.js";
import type { AlertEvent } from "./alert-event.js";
import { fanOutMatches } from "./alert-matches.js";
import type { DestinationSecrets } from "./destinations.js";
import { noteAlertChange } from "./changes.js";
import { formatAlert, GONE_STATUSES, retryAfterInBody } from "./formatters.js";
import { HeldBack, pacesOf, takeTurn } from "./pacing.js";
import { alertsDb, type AlertsDb, type DestinationKind } from "./tables.js";

/** The pub/sub channel on which the matcher says it stored deliveries. */
export const ALERTS_DUE_CHANNEL = "alerts:due";
/** How often a worker deletes the deliveries older than ALERTS_DELIVERIES_KEPT_DAYS, and how many per statement. */
const SWEEP_EVERY_MS = 3_600_000;
const SWEEP_SLICE = 5_000;

export interface DeliveryWorkerDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Pick<Logger, "info" | "warn" | "debug">;
  readonly config: Config;
  /** Opened on first use. */
  readonly box: () => SecretBox;
  readonly pubsub?: PubSub;
  /** The platform's: the chat platforms' paces held across processes (pacing.ts); none, not paced. */
  readonly rateLimiter?: RateLimiter;
  readonly resolve?: Resolver;
  readonly random?: () => number;
}

interface DueDelivery {
  id: number;
  rule_id: number;
  destination_id: number;
  message_id: string;
  payload: string;
  attempts: number;
  kind: DestinationKind;
  sealed: string;
  destination_status: string;
}

type Outcome = { kind: "delivered"; status: number } | { kind: "gone"; status: number } | FailedAttempt;

/** An attempt that threw, in words that never hold the URL or a token (a Telegram URL holds the bot's token). */
function failedWith(error: unknown): FailedAttempt {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: "failed",
    status: null,
    error: message.replace(/bot\d+:[\w-]+/g, "bot<token>"),
    retryAfterSeconds: null,
  };
}

export class DeliveryWorker {
  private readonly db: AlertsDb;
  private readonly schedule: number[];
  private readonly policy: TargetPolicy;
  private readonly settings: Config["alerts"];
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private again = false;
  private unsubscribe: (() => Promise<void>) | null = null;
  /** The sends under way. */
  private readonly sending = new Set<Promise<void>>();
  private sweptAtMs = Number.NEGATIVE_INFINITY;
  /** The destinations whose turn has not come: not claimed by this process before it. */
  private readonly heldBack: HeldBack;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.db = alertsDb(deps.store.db);
    this.schedule = parseRetrySchedule(deps.config.isw.webhookRetrySchedule);
    this.settings = deps.config.alerts;
    this.heldBack = new HeldBack(deps.clock, () => this.wake());
    this.policy = { resolve: deps.resolve ?? systemResolver, allowLoopback: this.settings.allowLoopback };
  }

  async start(): Promise<void> {
    if (this.loop || this.stopped) return;
    this.unsubscribe = (await this.deps.pubsub?.subscribe(ALERTS_DUE_CHANNEL, () => this.wake())) ?? null;
    this.loop = this.run();
  }

  /** Looks for due deliveries now. */
  wake(): void {
    this.again = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unsubscribe?.().catch(() => undefined);
    this.heldBack.clear();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.again = false;
      try {
        await this.sweep();
        await this.fanOut();
        await this.takeDue();
      } catch (error) {
        this.deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "alert delivery failed; retrying",
        );
      }
      if (this.stopped) break;
      if (this.again) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.settings.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
    await Promise.allSettled(this.sending);
  }

  private dueQuery() {
    return this.db
      .selectFrom("alert_deliveries as d")
      .innerJoin("alert_destinations as e", "e.id", "d.destination_id")
      .select([
        "d.id",
        "d.rule_id",
        "d.destination_id",
        "d.message_id",
        "d.payload",
        "d.attempts",
        "e.kind",
        "e.sealed",
        "e.status as destination_status",
      ])
      .where("d.status", "=", "pending");
  }

  /** Claims a delivery read as due: true when this process now holds its attempt. */
  private async claim(id: number, now: number): Promise<boolean> {
    const claim = await this.db
      .updateTable("alert_deliveries")
      .set({ next_attempt_at: now + this.settings.timeoutSeconds + this.settings.leaseMarginSeconds })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .executeTakeFirst();
    return Number(claim.numUpdatedRows) === 1;
  }

  /** Turns the matcher's stored matches into deliveries (alert-matches.ts), until none is left. */
  private async fanOut(): Promise<void> {
    if (!(await this.anyRow(this.db.selectFrom("alert_matches").select("id")))) return;
    while (!this.stopped && (await fanOutMatches(this.deps.store, this.settings.dashboardUrl)).taken > 0);
  }

  /**
   * Whether a read finds a row. Each write of the worker is looked for with a read first: on SQLite a write waits for
   * the ingest's write lock inside a synchronous call, holding this process's requests behind a long ingest commit
   * (a first sync's derivation: seconds), and an idle worker polling with writes did so every poll.
   */
  private async anyRow(query: { limit(n: number): { execute(): Promise<unknown[]> } }): Promise<boolean> {
    return (await query.limit(1).execute()).length > 0;
  }

  /** Deletes the deliveries that finished more than ALERTS_DELIVERIES_KEPT_DAYS ago, once an hour, a slice at a time. */
  async sweep(): Promise<number> {
    const nowMs = this.deps.clock.nowMs();
    if (nowMs - this.sweptAtMs < SWEEP_EVERY_MS && nowMs >= this.sweptAtMs) return 0;
    this.sweptAtMs = nowMs;
    const before = nowMs - this.settings.deliveriesKeptDays * 86_400_000;
    let deleted = 0;
    const finishedBefore = this.db
      .selectFrom("alert_deliveries")
      .select("id")
      .where("status", "!=", "pending")
      .where("finished_at_ms", "<", before);
    if (!(await this.anyRow(finishedBefore))) return 0;
    for (;;) {
      const old = this.db
        .selectFrom("alert_deliveries")
        .select("id")
        .where("status", "!=", "pending")
        .where("finished_at_ms", "<", before)
        .limit(SWEEP_SLICE);
      const result = await this.db.deleteFrom("alert_deliveries").where("id", "in", old).executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < SWEEP_SLICE || this.stopped) return deleted;
    }
  }

  /**
   * Claims what is due in one statement (PostgreSQL skips the rows another process is claiming), up to the free
   * sending slots (ALERTS_CONCURRENCY less the sends under way), and starts each send: a slow receiver holds one
   * slot, never the deliveries behind it. A finished send looks again at once.
   */
  private async takeDue(): Promise<void> {
    const free = this.settings.concurrency - this.sending.size;
    if (free <= 0 || this.stopped) return;
    const now = this.deps.clock.now();
    const heldBack = this.heldBack.now();
    const pending = this.db
      .selectFrom("alert_deliveries")
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .$if(heldBack.length > 0, (q) => q.where("destination_id", "not in", heldBack));
    if (!(await this.anyRow(pending))) return;
    let due = pending.orderBy("next_attempt_at").orderBy("id").limit(free);
    if (this.deps.store.kind === "postgres") due = due.forUpdate().skipLocked();
    const claimed = await this.db
      .updateTable("alert_deliveries")
      .set({ next_attempt_at: now + this.settings.timeoutSeconds + this.settings.leaseMarginSeconds })
      .where("id", "in", due)
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .returning(["id", "rule_id", "destination_id", "message_id", "payload", "attempts"])
      .execute();
    if (claimed.length === 0) return;
    const destinations = new Map(
      (
        await this.db
          .selectFrom("alert_destinations")
          .select(["id", "kind", "sealed", "status"])
          .where("id", "in", [...new Set(claimed.map((d) => Number(d.destination_id)))])
          .execute()
      ).map((d) => [Number(d.id), d]),
    );
    for (const row of claimed) {
      const destination = destinations.get(Number(row.destination_id));
      // A destination deleted meanwhile: its delivery is cancelled as for a disabled one.
      const delivery: DueDelivery = {
        ...row,
        id: Number(row.id),
        rule_id: Number(row.rule_id),
        destination_id: Number(row.destination_id),
        attempts: Number(row.attempts),
        kind: destination?.kind ?? "webhook",
        sealed: destination?.sealed ?? "",
        destination_status: destination?.status ?? "deleted",
      };
      const sending: Promise<void> = this.attempt(delivery)
        .catch((error: unknown) =>
          this.deps.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            "alert attempt failed",
          ),
        )
        .finally(() => {
          this.sending.delete(sending);
          this.wake();
        });
      this.sending.add(sending);
    }
  }

  /** Sends one delivery now if it is still pending and nobody holds it (the test fire); false otherwise. */
  async deliverNow(id: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const delivery = await this.dueQuery().where("d.id", "=", id).executeTakeFirst();
    if (!delivery || !(await this.claim(id, now))) return false;
    await this.attempt(delivery);
    return true;
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    if (delivery.destination_status !== "active") {
      await this.db
        .updateTable("alert_deliveries")
        .set({ status: "cancelled", finished_at_ms: this.deps.clock.nowMs() })
        .where("id", "=", delivery.id)
        .execute();
      metrics.alertDeliveries.inc({ kind: delivery.kind, outcome: "cancelled" });
      return;
    }
    let secrets: DestinationSecrets;
    try {
      secrets = JSON.parse(this.deps.box().open(delivery.sealed)) as DestinationSecrets;
    } catch (error) {
      await this.record(delivery, failedWith(error));
      return;
    }
    // A platform's rate limit, across processes: a delivery that comes too soon waits in the queue for its turn (no
    // attempt counted), its slot left to others. The store keeps seconds; this process holds the destination back
    // to the millisecond and looks again at its turn. A test fire goes at once.
    const paces = delivery.rule_id !== 0 ? pacesOf(delivery.kind, secrets) : [];
    if (paces.length > 0) {
      const waitMs =
        this.heldBack.waitOf(delivery.destination_id) ||
        (this.deps.rateLimiter ? await takeTurn(this.deps.rateLimiter, paces) : 0);
      if (waitMs > 0) {
        const turnMs = this.deps.clock.nowMs() + waitMs;
        this.heldBack.until(delivery.destination_id, turnMs);
        await this.db
          .updateTable("alert_deliveries")
          .set({ next_attempt_at: Math.floor(turnMs / 1_000) })
          .where("id", "=", delivery.id)
          .execute();
        return;
      }
    }
    const outcome = await this.send(delivery, secrets);
    // The windows are taken when a send starts; a send that reached the platform late (a busy process) must not
    // bring the next one within a window of it: this process waits a whole window from this send's end as well.
    const narrowest = paces[0];
    if (narrowest) this.heldBack.until(delivery.destination_id, this.deps.clock.nowMs() + narrowest.windowMs);
    await this.record(delivery, outcome);
    metrics.alertDeliveries.inc({ kind: delivery.kind, outcome: outcome.kind });
  }

  private async send(delivery: DueDelivery, secrets: DestinationSecrets): Promise<Outcome> {
    try {
      const request = formatAlert(delivery.kind, JSON.parse(delivery.payload) as AlertEvent, secrets, {
        messageId: delivery.message_id,
        nowSeconds: this.deps.clock.now(),
        telegramApiUrl: this.settings.telegramApiUrl,
      });
      const answer = await postWebhook(
        request.url,
        request.body,
        request.headers,
        this.policy,
        this.settings.timeoutSeconds * 1_000,
      );
      if (answer.status >= 200 && answer.status < 300) return { kind: "delivered", status: answer.status };
      if (GONE_STATUSES[delivery.kind].includes(answer.status)) return { kind: "gone", status: answer.status };
      const failed = failedAttempt(answer, this.deps.clock.nowMs());
      const inBody = retryAfterInBody(delivery.kind, answer.tooManyBody);
      return failed.retryAfterSeconds === null && inBody !== null ? { ...failed, retryAfterSeconds: inBody } : failed;
    } catch (error) {
      return failedWith(error);
    }
  }

  private async record(delivery: DueDelivery, outcome: Outcome): Promise<void> {
    const nowMs = this.deps.clock.nowMs();
    const attempts = delivery.attempts + 1;
    const log = { delivery: delivery.id, destination: delivery.destination_id, kind: delivery.kind, attempts };
    if (outcome.kind === "delivered") {
      await this.db
        .updateTable("alert_deliveries")
        .set({ status: "delivered", attempts, last_status: outcome.status, last_error: null, finished_at_ms: nowMs })
        .where("id", "=", delivery.id)
        .execute();
      this.deps.logger.debug(log, "alert delivered");
      return;
    }
    if (outcome.kind === "gone") {
      const reason = `the receiver answered ${outcome.status}: it is gone (a ${delivery.kind} destination)`;
      await this.deps.store.transaction(async (tx) => {
        const db = alertsDb(tx.db);
        await db
          .updateTable("alert_deliveries")
          .set({ status: "failed", attempts, last_status: outcome.status, last_error: reason, finished_at_ms: nowMs })
          .where("id", "=", delivery.id)
          .execute();
        await db
          .updateTable("alert_destinations")
          .set({ status: "disabled", disabled_at: Math.floor(nowMs / 1_000), disabled_reason: reason })
          .where("id", "=", delivery.destination_id)
          .execute();
        await cancelPendingDeliveries(db, "destination_id", delivery.destination_id, nowMs);
        await noteAlertChange(tx.db);
      });
      this.deps.logger.info({ ...log, status: outcome.status }, "alert destination is gone: disabled");
      return;
    }
    // A test fire is tried once.
    const final = delivery.rule_id === 0 || attempts >= this.schedule.length;
    const wait = retryWaitSeconds(this.schedule, attempts, outcome.retryAfterSeconds, this.deps.random ?? Math.random);
    await this.db
      .updateTable("alert_deliveries")
      .set({
        status: final ? "failed" : "pending",
        attempts,
        last_status: outcome.status,
        last_error: outcome.error.slice(0, 500),
        next_attempt_at: Math.floor(nowMs / 1_000) + wait,
        finished_at_ms: final ? nowMs : null,
      })
      .where("id", "=", delivery.id)
      .execute();
    this.deps.logger.debug({ ...log, status: outcome.status, final }, "alert attempt failed");
  }
}
