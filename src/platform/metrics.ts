/**
 * What an operator watches: the process's Prometheus metrics, served at `/metrics` (src/api/routes/service/metrics.ts).
 * One registry per process, shared by every layer that counts something where it happens: the HTTP layer
 * (latency and status by route pattern), the rate limiters (refusals), the batch writer (ingest rate and lag),
 * the Deriver (queue depth, refresh time), the caches (hits and misses), the live hub (stream connections) and
 * the alerts' delivery worker (deliveries). Node's own figures (event-loop delay, heap, CPU) come from prom-client's
 * default collectors. docs/METRICS.md lists the families; docs/grafana-dashboard.json shows them.
 */
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from "prom-client";

const PREFIX = "pelagic_";

/** One thread's metric families, as prom-client's JSON (they cross between threads as plain data). */
export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** The rate-limit budget a bucket belongs to (its first segment: key, ip, live-view, ai-analysis), never the client. */
export function budgetOfBucket(bucket: string): string {
  const head = bucket.split(":", 1)[0] ?? "";
  return head === "" ? "other" : head;
}

/** 2xx, 3xx, 4xx, 5xx: a status's class. */
function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "time from a request's arrival to its answer, by route pattern (never the raw URL) and status class",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly httpResponses = new Counter({
    name: `${PREFIX}http_responses_total`,
    help: "answers sent, by route pattern and status code",
    labelNames: ["route", "status"] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: `${PREFIX}rate_limit_refusals_total`,
    help: "requests a rate limit refused, by budget (key, ip: the plan budgets; live-view, ai-analysis: the per-feature ones)",
    labelNames: ["budget"] as const,
    registers: [this.registry],
  });

  readonly ingestRecords = new Counter({
    name: `${PREFIX}ingest_records_total`,
    help: "rows ingest stored that were new, by source and kind (fills, activity, resolutions): rate() is the ingest rate",
    labelNames: ["source", "kind"] as const,
    registers: [this.registry],
  });

  readonly ingestBatches = new Counter({
    name: `${PREFIX}ingest_batches_total`,
    help: "batches ingest committed, by source",
    labelNames: ["source"] as const,
    registers: [this.registry],
  });

  private readonly lastCommitMs = new Map<string, number>();

  readonly ingestLag = new Gauge({
    name: `${PREFIX}ingest_lag_seconds`,
    help: "seconds since the source last committed a batch in this process (as /api/v1/health's lag_seconds)",
    labelNames: ["source"] as const,
    registers: [this.registry],
    collect: () => this.collectIngestLag(),
  });

  readonly ingestEventAge = new Gauge({
    name: `${PREFIX}ingest_event_age_seconds`,
    help: "age of the newest event of the source's last committed batch when it was committed (a backfill is far behind the clock; a follower close to it)",
    labelNames: ["source"] as const,
    registers: [this.registry],
  });

  readonly deriveQueueDepth = new Gauge({
    name: `${PREFIX}derive_queue_depth`,
    help: "jobs waiting or running on the Deriver's queue (committed batches and refreshes)",
    registers: [this.registry],
  });

  readonly deriveJobs = new Counter({
    name: `${PREFIX}derive_jobs_total`,
    help: "jobs the Deriver's queue ran, by job (batch: a committed ingest batch; refresh)",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });

  readonly deriveRefreshDuration = new Histogram({
    name: `${PREFIX}derive_refresh_duration_seconds`,
    help: "time one Deriver refresh took (ranks, market statistics, P&L points), by outcome",
    labelNames: ["outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });

  readonly cacheLookups = new Counter({
    name: `${PREFIX}cache_lookups_total`,
    help: "cache lookups by cache (shared: the platform cache, memory or Redis; body: the process's serialized answers) and result (hit, miss, stale: a failed load answered last-known-good)",
    labelNames: ["cache", "result"] as const,
    registers: [this.registry],
  });

  readonly streamConnections = new Gauge({
    name: `${PREFIX}stream_connections`,
    help: "live-stream subscribers connected to this process, by stream",
    labelNames: ["stream"] as const,
    registers: [this.registry],
  });

  readonly alertDeliveries = new Counter({
    name: `${PREFIX}alert_deliveries_total`,
    help: "alert and territory webhook delivery attempts by destination kind and outcome (delivered, gone: the destination was disabled, failed: retried or given up, cancelled)",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });

  readonly escapedErrors = new Counter({
    name: `${PREFIX}escaped_errors_total`,
    help: "errors no code caught, kept by the process guard (src/runtime/process-guard.ts), by origin (uncaughtException, unhandledRejection): each one a connection's error that the process survived",
    labelNames: ["origin"] as const,
    registers: [this.registry],
  });

  constructor(private readonly nowMs: () => number = Date.now) {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  observeRequest(method: string, route: string, status: number, elapsedMs: number): void {
    this.httpDuration.observe({ method, route, status_class: statusClass(status) }, elapsedMs / 1000);
    this.httpResponses.inc({ route, status: String(status) });
  }

  /** A committed ingest batch: its new rows, and how old its newest event was. */
  ingestCommitted(
    source: string,
    counts: { fills: number; activity: number; resolutions: number },
    newestEventTs: number | null,
    nowSeconds: number,
  ): void {
    this.ingestBatches.inc({ source });
    for (const [kind, n] of Object.entries(counts)) if (n > 0) this.ingestRecords.inc({ source, kind }, n);
    this.lastCommitMs.set(source, this.nowMs());
    if (newestEventTs !== null) this.ingestEventAge.set({ source }, Math.max(0, nowSeconds - newestEventTs));
  }

  private collectIngestLag(): void {
    const now = this.nowMs();
    for (const [source, at] of this.lastCommitMs) this.ingestLag.set({ source }, (now - at) / 1000);
  }

  /** Forgets every value counted so far (a test file starts from zero, as a fresh process does). */
  reset(): void {
    this.lastCommitMs.clear();
    this.registry.resetMetrics();
  }

  /**
   * Pelagic's own families as JSON, for the thread that serves /metrics to add in (the ingest thread's counters);
   * Node's default figures are the process's, which that thread reports already.
   */
  async ownFamilies(): Promise<ThreadMetrics> {
    return (await this.registry.getMetricsAsJSON()).filter((family) => family.name.startsWith(PREFIX));
  }

  /** The exposition, in Prometheus's text format, with the families of other threads of the process added in. */
  async text(otherThreads: readonly ThreadMetrics[] = []): Promise<{ contentType: string; body: string }> {
    if (otherThreads.length === 0)
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    const merged = AggregatorRegistry.aggregate([await this.registry.getMetricsAsJSON(), ...otherThreads]);
    return { contentType: this.registry.contentType, body: await merged.metrics() };
  }
}

/** This process's metrics. */
export const metrics = new Metrics();
