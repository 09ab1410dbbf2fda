/**
 * Webhook registrations, per account (the account of the key that registers, so a rotated key keeps them), and
 * the deliveries each event queues. A registration lists the cities whose events it wants, or `all`.
 */
import { PelagicError } from "../../errors/index.js";
import type { EventRow } from "../event-view.js";
import { webhookPayload } from "../event-view.js";
import type { IswDb } from "../tables.js";
import type { SecretBox } from "./secret-box.js";
import { newWebhookSecret } from "./signing.js";

export type CitySelection = "all" | readonly string[];

export class CitiesProblem extends PelagicError {
  constructor(message: string) {
    super("WEBHOOK_CITIES_UNKNOWN", message);
  }
}

export class EndpointLimit extends PelagicError {
  constructor(message: string) {
    super("WEBHOOK_ENDPOINT_LIMIT", message);
  }
}

/** `all`, or comma-separated city names matched without regard to case; unknown names are a CitiesProblem. */
export async function parseCities(db: IswDb, text: string | undefined): Promise<CitySelection> {
  const trimmed = (text ?? "all").trim();
  if (trimmed === "" || trimmed.toLowerCase() === "all") return "all";
  const known = await db.selectFrom("isw_cities").select("name").where("active", "=", 1).execute();
  const byKey = new Map(known.map((c) => [c.name.toLowerCase(), c.name]));
  const asked = [
    ...new Set(
      trimmed
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    ),
  ];
  const unknown = asked.filter((name) => !byKey.has(name.toLowerCase()));
  if (unknown.length > 0) {
    const list = known
      .map((c) => c.name)
      .sort()
      .join(", ");
    throw new CitiesProblem(
      `unknown ${unknown.length === 1 ? "city" : "cities"}: ${unknown.join(", ")}; known: ${list || "none yet (the monitor has not run)"}`,
    );
  }
  return asked.map((name) => byKey.get(name.toLowerCase())!).sort();
}

export function citiesText(cities: CitySelection): string {
  return cities === "all" ? "all" : cities.join(",");
}

function storedCities(cities: CitySelection): string {
  return cities === "all" ? "all" : JSON.stringify(cities);
}

function readCities(stored: string): CitySelection {
  return stored === "all" ? "all" : (JSON.parse(stored) as string[]);
}

export interface Registration {
  readonly status: "registered" | "updated";
  readonly id: number;
  readonly url: string;
  readonly cities: CitySelection;
  /** Shown once, on the first registration of the URL; null when an existing registration was updated. */
  readonly secret: string | null;
}

export async function registerEndpoint(
  db: IswDb,
  input: { account: string; url: string; cities: CitySelection; box: SecretBox; now: number; maxPerAccount: number },
): Promise<Registration> {
  const existing = await db
    .selectFrom("isw_webhook_endpoints")
    .select("id")
    .where("account", "=", input.account)
    .where("url", "=", input.url)
    .executeTakeFirst();
  if (existing) {
    await db
      .updateTable("isw_webhook_endpoints")
      .set({ cities: storedCities(input.cities), status: "active", disabled_at: null, disabled_reason: null })
      .where("id", "=", existing.id)
      .execute();
    return { status: "updated", id: existing.id, url: input.url, cities: input.cities, secret: null };
  }
  const count = await db
    .selectFrom("isw_webhook_endpoints")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("account", "=", input.account)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= input.maxPerAccount)
    throw new EndpointLimit(
      `an account may register at most ${input.maxPerAccount} webhook URLs; unregister one first`,
    );
  const secret = newWebhookSecret();
  const row = await db
    .insertInto("isw_webhook_endpoints")
    .values({
      account: input.account,
      url: input.url,
      cities: storedCities(input.cities),
      secret_box: input.box.seal(secret),
      status: "active",
      created_at: input.now,
      disabled_at: null,
      disabled_reason: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { status: "registered", id: row.id, url: input.url, cities: input.cities, secret };
}

/**
 * Removes the listed cities from the account's registration of the URL, or the whole registration for `all` (or
 * when none is left); its pending deliveries are cancelled with it. Null when the account has no such URL.
 */
export async function unregisterEndpoint(
  db: IswDb,
  input: { account: string; url: string; cities: CitySelection; now: number },
): Promise<{ status: "unregistered" | "updated"; cities: CitySelection } | null> {
  const existing = await db
    .selectFrom("isw_webhook_endpoints")
    .selectAll()
    .where("account", "=", input.account)
    .where("url", "=", input.url)
    .executeTakeFirst();
  if (!existing) return null;
  const current = readCities(existing.cities);
  const remaining =
    input.cities === "all" ? [] : current === "all" ? null : current.filter((c) => !input.cities.includes(c));
  if (remaining === null)
    throw new CitiesProblem(
      "this URL is registered for all cities: unregister it with cities=all, or register it again with the cities to keep",
    );
  if (remaining.length > 0) {
    await db
      .updateTable("isw_webhook_endpoints")
      .set({ cities: storedCities(remaining) })
      .where("id", "=", existing.id)
      .execute();
    return { status: "updated", cities: remaining };
  }
  await db
    .updateTable("isw_webhook_deliveries")
    .set({ status: "cancelled", finished_at: input.now })
    .where("endpoint_id", "=", existing.id)
    .where("status", "=", "pending")
    .execute();
  await db.deleteFrom("isw_webhook_endpoints").where("id", "=", existing.id).execute();
  return { status: "unregistered", cities: [] };
}

export function messageIdOf(eventId: number): string {
  return `msg_isw_${eventId}`;
}

/** Queues the event for every active endpoint that wants its city, first attempt at `firstAttemptAt`; returns how many. */
export async function enqueueDeliveries(
  db: IswDb,
  event: EventRow,
  now: number,
  firstAttemptAt = now,
): Promise<number> {
  const endpoints = await db
    .selectFrom("isw_webhook_endpoints")
    .select(["id", "cities"])
    .where("status", "=", "active")
    .execute();
  const wanting = endpoints.filter((e) => {
    const cities = readCities(e.cities);
    return cities === "all" || cities.includes(event.city);
  });
  if (wanting.length === 0) return 0;
  const payload = webhookPayload(event);
  await db
    .insertInto("isw_webhook_deliveries")
    .values(
      wanting.map((e) => ({
        endpoint_id: e.id,
        event_id: event.id,
        message_id: messageIdOf(event.id),
        payload,
        status: "pending" as const,
        attempts: 0,
        next_attempt_at: firstAttemptAt,
        last_status: null,
        last_error: null,
        created_at: now,
        finished_at: null,
      })),
    )
    .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
    .execute();
  return wanting.length;
}
