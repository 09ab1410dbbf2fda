/**
 * The territory monitor's webhook registrations (POST /api/v2/isw/webhook/register, DELETE .../unregister), held as
 * alerts: a registration of a URL is a webhook destination (the URL and its signing secret, sealed) and a
 * `territory_event` rule that names it with webhook_format `isw`, so that its receiver gets the territory body it was
 * promised (`{type: isw.<event type>, timestamp, data: the event}`) and the delivery worker sends, retries, paces and
 * disables it like any other alert. The account sees both in /api/v2/alerts/*. A registration is found by its URL
 * among the account's `isw` rules (at most ISW_WEBHOOKS_PER_ACCOUNT), whose destinations are opened to compare.
 */
import type { Config } from "../config/index.js";
import { PelagicError } from "../errors/index.js";
import { iswDb } from "../isw/tables.js";
import type { Store, StoreTransaction } from "../store/database.js";
import { refuseOverLimit } from "./alert-errors.js";
import { noteAlertChange } from "./changes.js";
import { rulesNaming, webhookSecrets, type DestinationSecrets } from "./destinations.js";
import { normalizeFilters } from "./rule-kinds.js";
import { deleteRuleIn, ruleOf, type Rule } from "./rules.js";
import { alertsDb } from "./tables.js";
import type { SecretBox } from "./webhooks/secret-box.js";

export type CitySelection = "all" | readonly string[];

const NAME = "territory webhook";

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
export async function parseCities(store: Store, text: string | undefined): Promise<CitySelection> {
  const trimmed = (text ?? "all").trim();
  if (trimmed === "" || trimmed.toLowerCase() === "all") return "all";
  const known = await iswDb(store.db).selectFrom("isw_cities").select("name").where("active", "=", 1).execute();
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

/** A rule's cities as a selection: none is all. */
function selectionOf(rule: Rule): CitySelection {
  return rule.filters.cities.length === 0 ? "all" : rule.filters.cities;
}

export interface Registration {
  readonly status: "registered" | "updated";
  /** The alert rule that holds it (GET /api/v2/alerts/rules/{id}). */
  readonly id: number;
  readonly url: string;
  readonly cities: CitySelection;
  /** Shown once, on the first registration of the URL; null when an existing registration was updated. */
  readonly secret: string | null;
}

interface Found {
  readonly rule: Rule;
  readonly destinationId: number;
}

/** The account's registration of `url`: its rule and destination, or null. */
async function findRegistration(tx: StoreTransaction, account: string, url: string, box: SecretBox) {
  const db = alertsDb(tx.db);
  const rules = (
    await db
      .selectFrom("alert_rules")
      .selectAll()
      .where("account", "=", account)
      .where("webhook_format", "=", "isw")
      .orderBy("id")
      .execute()
  ).map(ruleOf);
  const ids = rules.flatMap((rule) => rule.destination_ids);
  if (ids.length === 0) return { count: rules.length, found: null };
  const destinations = await db
    .selectFrom("alert_destinations")
    .select(["id", "sealed"])
    .where("account", "=", account)
    .where("kind", "=", "webhook")
    .where("id", "in", ids)
    .execute();
  const sealedUrl = new Map(destinations.map((d) => [Number(d.id), d.sealed]));
  for (const rule of rules)
    for (const id of rule.destination_ids) {
      const sealed = sealedUrl.get(id);
      if (sealed === undefined) continue;
      let secrets: DestinationSecrets;
      try {
        secrets = JSON.parse(box.open(sealed)) as DestinationSecrets;
      } catch {
        continue; // sealed with another key: not a registration this process can match
      }
      if (secrets.url === url) return { count: rules.length, found: { rule, destinationId: id } satisfies Found };
    }
  return { count: rules.length, found: null };
}

/** The cities as the rule's filters hold them (checked as the alerts check a territory_event rule's). */
function territoryFilters(cities: CitySelection, settings: Config["alerts"]): string {
  return JSON.stringify(normalizeFilters("territory_event", { cities: cities === "all" ? [] : cities }, settings));
}

/**
 * Registers `url` for the cities' events, or, when the account registered it before, replaces its cities and
 * enables it again. A new registration counts against ISW_WEBHOOKS_PER_ACCOUNT and the alerts' own limits.
 */
export async function registerTerritoryWebhook(
  store: Store,
  input: { account: string; url: URL; cities: CitySelection; box: SecretBox; now: number; config: Config },
): Promise<Registration> {
  const url = input.url.toString();
  const { alerts: settings } = input.config;
  return store.transaction(async (tx) => {
    const db = alertsDb(tx.db);
    const { count, found } = await findRegistration(tx, input.account, url, input.box);
    if (found) {
      await db
        .updateTable("alert_rules")
        .set({ filters: territoryFilters(input.cities, settings), status: "active", updated_at: input.now })
        .where("id", "=", found.rule.id)
        .execute();
      await db
        .updateTable("alert_destinations")
        .set({ status: "active", updated_at: input.now, disabled_at: null, disabled_reason: null })
        .where("id", "=", found.destinationId)
        .execute();
      await noteAlertChange(tx.db);
      return { status: "updated", id: found.rule.id, url, cities: input.cities, secret: null };
    }
    const most = input.config.isw.webhooksPerAccount;
    if (count >= most)
      throw new EndpointLimit(`an account may register at most ${most} webhook URLs; unregister one first`);
    await refuseOverLimit(
      db,
      "alert_destinations",
      input.account,
      settings.destinationsPerAccount,
      "ALERTS_DESTINATIONS_PER_ACCOUNT",
    );
    await refuseOverLimit(db, "alert_rules", input.account, settings.rulesPerAccount, "ALERTS_RULES_PER_ACCOUNT");
    const { secrets, label } = webhookSecrets(input.url);
    const stamps = { account: input.account, name: NAME, created_at: input.now, updated_at: input.now };
    const destination = await db
      .insertInto("alert_destinations")
      .values({
        ...stamps,
        kind: "webhook",
        label,
        sealed: input.box.seal(JSON.stringify(secrets)),
        status: "active",
        disabled_at: null,
        disabled_reason: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const rule = await db
      .insertInto("alert_rules")
      .values({
        ...stamps,
        kind: "territory_event",
        filters: territoryFilters(input.cities, settings),
        destination_ids: JSON.stringify([Number(destination.id)]),
        status: "active",
        webhook_format: "isw",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await noteAlertChange(tx.db);
    return { status: "registered", id: Number(rule.id), url, cities: input.cities, secret: secrets.secret ?? null };
  });
}

/**
 * Removes the listed cities from the account's registration of `url`, or the whole registration for `all` (or when
 * none is left): its rule and destination are deleted and their pending deliveries cancelled. Null when the account
 * has no such URL.
 */
export async function unregisterTerritoryWebhook(
  store: Store,
  input: { account: string; url: URL; cities: CitySelection; box: SecretBox; now: number; config: Config },
): Promise<{ status: "unregistered" | "updated"; cities: CitySelection } | null> {
  return store.transaction(async (tx) => {
    const db = alertsDb(tx.db);
    const { found } = await findRegistration(tx, input.account, input.url.toString(), input.box);
    if (!found) return null;
    const current = selectionOf(found.rule);
    const remaining =
      input.cities === "all" ? [] : current === "all" ? null : current.filter((c) => !input.cities.includes(c));
    if (remaining === null)
      throw new CitiesProblem(
        "this URL is registered for all cities: unregister it with cities=all, or register it again with the cities to keep",
      );
    if (remaining.length > 0) {
      await db
        .updateTable("alert_rules")
        .set({ filters: territoryFilters(remaining, input.config.alerts), updated_at: input.now })
        .where("id", "=", found.rule.id)
        .execute();
      await noteAlertChange(tx.db);
      return { status: "updated", cities: remaining };
    }
    await deleteRuleIn(tx, input.account, found.rule.id, input.now * 1_000);
    if ((await rulesNaming(db, input.account, found.destinationId)).length === 0)
      await db.deleteFrom("alert_destinations").where("id", "=", found.destinationId).execute();
    return { status: "unregistered", cities: [] };
  });
}
