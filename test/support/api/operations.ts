/**
 * Each GET operation of the served OpenAPI document but the streams, as a URL with its path and required query
 * filled from one wallet and market of a test world: what the every-route tests and the migration's before/after
 * comparison call.
 */
import type { FastifyInstance } from "fastify";
import { replayProbe } from "../../../src/isw/testing/replay-probe.js";
import type { Store } from "../../../src/store/database.js";

/** Streams stay open by design; they have tests of their own. */
const SKIPPED = [/\/live\//];

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { type?: string } }>;
}

export interface OperationSubjects {
  readonly wallet: string;
  readonly market: { readonly id: string; readonly condition_id: string };
  /** The world's last instant (unix seconds). */
  readonly now: number;
  /** The world's biggest funding cluster (its funder), when it has one. */
  readonly clusterId?: string;
}

/** A valid value of a parameter named `name` of type `type`: the subjects' where it names one, else 1 or "x". */
export function valueFor(subjects: OperationSubjects, name: string, type: string | undefined): string {
  if (name === "address" || name === "wallet" || name === "addr") return subjects.wallet;
  if (name === "market_id") return subjects.market.id;
  if (name === "cluster_id") return subjects.clusterId ?? `0x${"0".repeat(40)}`;
  if (name === "condition_id" || name === "market") return subjects.market.condition_id;
  // The every-route tests make the key's account one alert destination and one rule first: each is number 1.
  if (name === "rule_id" || name === "destination_id") return "1";
  // And they record the territory monitor's events first (operations.ts, `recordTerritoryEvents`): number 1 is one.
  if (name === "event_id") return "1";
  if (name === "since" || name === "after") return String(subjects.now - 7 * 86_400);
  if (name === "before") return String(subjects.now);
  return type === "integer" || type === "number" ? "1" : "x";
}

export async function operationUrls(
  app: FastifyInstance,
  subjects: OperationSubjects,
): Promise<Array<{ template: string; url: string }>> {
  const doc = (await app.inject({ url: "/api/openapi.json" })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  const urls: Array<{ template: string; url: string }> = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const get = methods.get;
    if (!get || SKIPPED.some((skip) => skip.test(template))) continue;
    const query = new URLSearchParams();
    for (const p of get.parameters ?? [])
      if (p.in === "query" && p.required) query.set(p.name, valueFor(subjects, p.name, p.schema?.type));
    const pathType = (name: string) => get.parameters?.find((p) => p.in === "path" && p.name === name)?.schema?.type;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => valueFor(subjects, name, pathType(name)));
    urls.push({ template, url: query.size > 0 ? `${path}?${query}` : path });
  }
  return urls;
}

/** The busiest wallet of a derived world, and the market it traded last. */
export async function operationSubjects(store: Store, now: number): Promise<OperationSubjects> {
  const { wallet } = await store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .orderBy("total_trades", "desc")
    .orderBy("wallet")
    .limit(1)
    .executeTakeFirstOrThrow();
  const traded = await store.db
    .selectFrom("positions")
    .select("condition_id")
    .where("wallet", "=", wallet)
    .orderBy("last_ts", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const market = await store.db
    .selectFrom("markets")
    .select(["id", "condition_id"])
    .where("condition_id", "=", traded.condition_id)
    .executeTakeFirstOrThrow();
  const cluster = await store.db
    .selectFrom("funding_clusters")
    .select("cluster_id")
    .groupBy("cluster_id")
    .orderBy((eb) => eb.fn.countAll(), "desc")
    .orderBy("cluster_id")
    .limit(1)
    .executeTakeFirst()
    // A store of a layout before migration 0037 has no funding tables.
    .catch(() => undefined);
  return { wallet, market, now, clusterId: cluster?.cluster_id };
}

/** Probes the real map snapshots a day at a time until the territory monitor records an event (the first is number 1). */
export async function recordTerritoryEvents(store: Store): Promise<void> {
  const run = replayProbe(store, { env: { ISW_CONFIRM_AFTER_HOURS: "0" } });
  for (let day = 0; day < 12; day++) if ((await run.day(day)).length > 0) return;
  throw new Error("the replay recorded no territory event");
}
