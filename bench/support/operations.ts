/**
 * The API bench's targets, read from the served OpenAPI document at run time, so an operation added later joins the
 * table by itself: every GET operation but the streams (SSE and WebSocket stay open by design; bench/live.bench.ts
 * measures them), its path and required query parameters filled from the world's busiest wallets and markets
 * (one request per wallet or market, rotated), its Premium key sent when the operation declares a security scheme.
 * A few operations rotate over more than one shape of query (leaderboard sorts, search words, whale-alert filters),
 * and a few run twice (without gzip, as a POST batch): `VARIANTS` below.
 */
import type { DrilldownPaths } from "./drilldown-targets.js";
import type { BenchFixtures } from "./bench-fixtures.js";

export interface BenchOperation {
  /** The row's name: method and path template, and what differs from the plain operation. */
  readonly label: string;
  /** The OpenAPI path template (BENCH_ONLY matches it by substring). */
  readonly template: string;
  readonly method: "GET" | "POST";
  /** Paths to rotate through (different wallets, markets or queries), or one. */
  readonly paths: readonly string[];
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Requests per second of the open-loop run. */
  readonly rate: number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

interface Operation {
  parameters?: Parameter[];
  security?: Array<Record<string, unknown>>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** Streams: answered as event streams or upgraded to WebSocket, never a finished body. */
export const STREAMING = /\/live\//;

/**
 * Measured at 1,000 requests/s (the others at 200): the pages a browser asks for most, and the Premium reads issue 25
 * holds to that rate (whale alerts, a market's whale trades, a wallet's summary in a market).
 */
const BUSY = new Set([
  "/api/v2/wallet/{address}/overview",
  "/api/v2/wallet/{address}/positions",
  "/api/v2/wallet/{address}/closed",
  "/api/v2/market/{market_id}",
  "/api/v2/whales/leaderboard",
  "/api/v2/markets/search",
  "/api/v2/whale-alerts",
  "/api/v2/market/{condition_id}/whale-trades",
  "/api/v2/wallet/{address}/market-summary/{condition_id}",
]);
const BUSY_RATE = 1_000;
const RATE = 200;

/** What browsers, curl --compressed and most HTTP libraries send: kept answers come back gzip-compressed. */
const GZIP = { "accept-encoding": "gzip, deflate" };

const DAY = 86_400;

/** The value of one parameter for the i-th rotation. */
function valueFor(name: string, template: string, i: number, fx: BenchFixtures): string | undefined {
  const wallet = fx.wallets[i % fx.wallets.length]!;
  const market = fx.markets[i % fx.markets.length]!;
  const walletScoped = template.includes("{address}");
  switch (name) {
    case "address":
      return wallet.address;
    case "market_id":
      return market.id;
    case "condition_id":
    case "market":
      return walletScoped ? wallet.conditionId : market.conditionId;
    case "cluster_id":
      return fx.clusters.length > 0 ? fx.clusters[i % fx.clusters.length] : undefined;
    case "since":
      return String(fx.end - 7 * DAY);
    case "after":
      return String(fx.end - 30 * DAY);
    case "before":
      return String(fx.end + 60);
    default:
      return undefined;
  }
}

/** Paths of one operation: one per wallet or market when its path names one, else its defaults. */
function pathsOf(template: string, operation: Operation, fx: BenchFixtures, rotate: number): string[] {
  const parameters = operation.parameters ?? [];
  const perEntity = parameters.some((p) => p.in === "path") || parameters.some((p) => p.in === "query" && p.required);
  return Array.from({ length: perEntity ? rotate : 1 }, (_, i) => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => valueFor(name, template, i, fx) ?? name);
    const query = new URLSearchParams();
    for (const p of parameters) {
      if (p.in !== "query" || !p.required) continue;
      const value = valueFor(p.name, template, i, fx);
      if (value === undefined)
        throw new Error(
          `the bench has no value for the required parameter ${p.name} of ${template}: add it to valueFor`,
        );
      query.set(p.name, value);
    }
    return query.size > 0 ? `${path}?${query}` : path;
  });
}

function keyHeaders(operation: Operation, key: string): Record<string, string> {
  const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes("ApiKeyHeader")) return { "x-api-key": key };
  if (schemes.includes("BearerAuth")) return { authorization: `Bearer ${key}` };
  return {};
}

export interface Rotations {
  readonly whaleAlerts: { filtered: string[]; everyWallet: string[] };
  readonly drilldowns: DrilldownPaths;
}

/** Operations measured with a rotation of their own, or more than once. */
function variants(base: BenchOperation, fx: BenchFixtures, rotations: Rotations, rotate: number): BenchOperation[] {
  const take = <T>(list: readonly T[]) => list.slice(0, rotate);
  switch (base.template) {
    case "/api/v2/whales/leaderboard": {
      const paths = ["", "?sort=win_rate", "?category=SPORTS&filter=all", "?sort=volume&offset=50"].map(
        (q) => base.template + q,
      );
      return [
        { ...base, paths },
        { ...base, label: `${base.label} (no gzip)`, paths, headers: {} },
      ];
    }
    case "/api/v2/market/{market_id}":
      return [base, { ...base, label: `${base.label} (no gzip)`, headers: {} }];
    case "/api/v2/markets/search": {
      const words = [...new Set(fx.markets.flatMap((m) => m.slug.split("-")).filter((w) => w.length > 4))];
      return [
        {
          ...base,
          label: `${base.label}?q=<slug word>`,
          paths: take(words).map((w) => `${base.template}?q=${encodeURIComponent(w)}`),
        },
      ];
    }
    case "/api/v2/wallet-search": {
      const queries = fx.wallets.flatMap((w) => [w.name ?? w.address.slice(0, 8), w.address.slice(0, 6)]);
      return [
        {
          ...base,
          label: `${base.label}?q=<name or 0x prefix>`,
          paths: take(queries).map((q) => `${base.template}?q=${encodeURIComponent(q)}`),
        },
      ];
    }
    case "/api/v2/whale-alerts":
      return [
        base,
        {
          ...base,
          label: `${base.label} (${rotations.whaleAlerts.filtered.length} filters rotated)`,
          paths: rotations.whaleAlerts.filtered,
        },
        {
          ...base,
          label: `${base.label}?smart_only=false (${rotations.whaleAlerts.everyWallet.length} floors rotated)`,
          paths: rotations.whaleAlerts.everyWallet,
        },
      ];
    case "/api/v2/market/{condition_id}/whale-trades":
      return [
        { ...base, label: `${base.label} (newest page)`, paths: take(rotations.drilldowns.whaleTradesNewest) },
        { ...base, label: `${base.label}?before=<instant>`, paths: take(rotations.drilldowns.whaleTradesBefore) },
      ];
    case "/api/v2/wallet/{address}/market-summary/{condition_id}":
      return [
        base,
        { ...base, label: `${base.label}?at=<instant>`, paths: take(rotations.drilldowns.marketSummaryAt) },
      ];
    case "/api/v2/wallet/{address}/market-trades":
      return [
        {
          ...base,
          label: `${base.label} (busiest wallet, its busiest market)`,
          paths: take(rotations.drilldowns.marketTrades),
        },
      ];
    case "/api/v2/wallet/{address}/overview": {
      // The batch call beside the page: 50 wallets a request, the same Premium route family.
      const batch = JSON.stringify({ wallets: fx.wallets.slice(0, 50).map((w) => w.address) });
      return [
        base,
        {
          ...base,
          label: "POST /api/public/v1/wallets/overview (50 wallets)",
          method: "POST",
          paths: ["/api/public/v1/wallets/overview"],
          body: batch,
          headers: { ...base.headers, "x-api-key": fx.premiumKey },
          rate: RATE,
        },
      ];
    }
    default:
      return [base];
  }
}

/** Every GET operation of `doc` but the streams (returned apart, so the bench can say which it skipped). */
export function benchOperations(
  doc: OpenApiDocument,
  fx: BenchFixtures,
  rotations: Rotations,
  rotate: number,
): { operations: BenchOperation[]; skipped: string[] } {
  const operations: BenchOperation[] = [];
  const skipped: string[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const get = methods.get;
    if (!get) continue;
    if (STREAMING.test(template)) {
      skipped.push(`GET ${template}`);
      continue;
    }
    const base: BenchOperation = {
      label: `GET ${template}`,
      template,
      method: "GET",
      paths: pathsOf(template, get, fx, rotate),
      headers: { ...GZIP, ...keyHeaders(get, fx.premiumKey) },
      rate: BUSY.has(template) ? BUSY_RATE : RATE,
    };
    operations.push(...variants(base, fx, rotations, rotate));
  }
  return { operations, skipped };
}
