/**
 * An account's alert destinations: a Standard Webhooks URL (its `whsec_` secret shown once), a Telegram chat (bot
 * token and chat id), a Discord webhook or a Slack incoming webhook (their URLs are credentials). What is secret is
 * sealed at rest (the territory webhooks' SecretBox); `label` is what may be shown. A URL must pass the territory
 * webhooks' SSRF refusal (public addresses only, checked again at every connection); Discord and Slack URLs must
 * start with their platform's prefix (settings), the Telegram Bot API root is a setting.
 */
import { cancelPendingDeliveries } from "./delivery-rows.js";
import type { Config } from "../config/index.js";
import type { SecretBox } from "./webhooks/secret-box.js";
import { newWebhookSecret } from "./webhooks/signing.js";
import { checkedAddress, hostOf, parseWebhookUrl, type TargetPolicy } from "./webhooks/ssrf.js";
import { AlertInvalid, refuseOverLimit } from "./alert-errors.js";
import { noteAlertChange } from "./changes.js";
import type { Store } from "../store/database.js";
import { alertsDb, type AlertDestinationsTable, type AlertsDb, type DestinationKind } from "./tables.js";

export interface DestinationInput {
  readonly kind: DestinationKind;
  readonly name: string;
  readonly url?: string;
  readonly bot_token?: string;
  readonly chat_id?: string;
}

/** The sealed parts of a destination, by kind. */
export interface DestinationSecrets {
  /** webhook, discord, slack */
  readonly url?: string;
  /** webhook: the signing secret */
  readonly secret?: string;
  /** telegram */
  readonly bot_token?: string;
  readonly chat_id?: string;
}

export type DestinationRow = Omit<AlertDestinationsTable, "id"> & { id: number };

const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

function required(input: DestinationInput, field: "url" | "bot_token" | "chat_id"): string {
  const value = input[field]?.trim();
  if (!value) throw new AlertInvalid(["body", field], `a ${input.kind} destination needs ${field}`);
  return value;
}

function refuseOthers(input: DestinationInput, fields: readonly ("url" | "bot_token" | "chat_id")[]): void {
  for (const field of ["url", "bot_token", "chat_id"] as const)
    if (!fields.includes(field) && input[field] !== undefined)
      throw new AlertInvalid(["body", field], `a ${input.kind} destination takes no ${field}`);
}

async function checkedUrl(text: string, policy: TargetPolicy, prefix?: { value: string; setting: string }) {
  let url: URL;
  try {
    url = parseWebhookUrl(text);
    if (prefix && !url.toString().startsWith(prefix.value))
      throw new AlertInvalid(["body", "url"], `must start with ${prefix.value} (${prefix.setting})`);
    await checkedAddress(hostOf(url), policy);
  } catch (error) {
    if (error instanceof AlertInvalid) throw error;
    throw new AlertInvalid(["body", "url"], `URL refused: ${(error as Error).message}`);
  }
  return url;
}

/** A new webhook destination's secrets (its URL and a new signing secret) and label, for a URL already checked. */
export function webhookSecrets(url: URL): { secrets: DestinationSecrets; label: string } {
  return { secrets: { url: url.toString(), secret: newWebhookSecret() }, label: `${url.origin}${url.pathname}` };
}

/** The secrets and label of a new destination, checked; AlertInvalid names the field. */
export async function destinationSecrets(
  input: DestinationInput,
  settings: Config["alerts"],
  policy: TargetPolicy,
): Promise<{ secrets: DestinationSecrets; label: string }> {
  switch (input.kind) {
    case "webhook": {
      refuseOthers(input, ["url"]);
      return webhookSecrets(await checkedUrl(required(input, "url"), policy));
    }
    case "telegram": {
      refuseOthers(input, ["bot_token", "chat_id"]);
      const token = required(input, "bot_token");
      const chat = required(input, "chat_id");
      if (!BOT_TOKEN.test(token))
        throw new AlertInvalid(["body", "bot_token"], "not a Telegram bot token (<digits>:<20 or more characters>)");
      if (!CHAT_ID.test(chat))
        throw new AlertInvalid(["body", "chat_id"], "not a Telegram chat id (an integer, or @channelusername)");
      await checkedUrl(settings.telegramApiUrl, policy);
      return { secrets: { bot_token: token, chat_id: chat }, label: `Telegram chat ${chat}` };
    }
    case "discord":
    case "slack": {
      refuseOthers(input, ["url"]);
      const prefix =
        input.kind === "discord"
          ? { value: settings.discordWebhookPrefix, setting: "ALERTS_DISCORD_WEBHOOK_PREFIX" }
          : { value: settings.slackWebhookPrefix, setting: "ALERTS_SLACK_WEBHOOK_PREFIX" };
      const url = await checkedUrl(required(input, "url"), policy, prefix);
      const platform = input.kind === "discord" ? "Discord" : "Slack";
      return { secrets: { url: url.toString() }, label: `${platform} webhook on ${url.host}` };
    }
  }
}

export async function createDestination(
  store: Store,
  input: { account: string; destination: DestinationInput; box: SecretBox; now: number; settings: Config["alerts"] },
  policy: TargetPolicy,
): Promise<{ row: DestinationRow; secret: string | null }> {
  const db = alertsDb(store.db);
  const { secrets, label } = await destinationSecrets(input.destination, input.settings, policy);
  await refuseOverLimit(
    db,
    "alert_destinations",
    input.account,
    input.settings.destinationsPerAccount,
    "ALERTS_DESTINATIONS_PER_ACCOUNT",
  );
  const values = {
    account: input.account,
    name: input.destination.name.trim(),
    kind: input.destination.kind,
    label,
    sealed: input.box.seal(JSON.stringify(secrets)),
    status: "active" as const,
    created_at: input.now,
    updated_at: input.now,
    disabled_at: null,
    disabled_reason: null,
  };
  const { id } = await db.insertInto("alert_destinations").values(values).returning("id").executeTakeFirstOrThrow();
  return { row: { ...values, id: Number(id) }, secret: secrets.secret ?? null };
}

export async function listDestinations(store: Store, account: string): Promise<DestinationRow[]> {
  const rows = await alertsDb(store.db)
    .selectFrom("alert_destinations")
    .selectAll()
    .where("account", "=", account)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function readDestination(store: Store, account: string, id: number): Promise<DestinationRow | null> {
  const row = await alertsDb(store.db)
    .selectFrom("alert_destinations")
    .selectAll()
    .where("account", "=", account)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : null;
}

/** Renames a destination, or enables one again (a disabled destination keeps its reason until then). */
export async function updateDestination(
  store: Store,
  account: string,
  id: number,
  change: { name?: string; enabled?: boolean },
  now: number,
): Promise<DestinationRow | null> {
  const row = await readDestination(store, account, id);
  if (!row) return null;
  const status = change.enabled === undefined ? row.status : change.enabled ? "active" : "disabled";
  const next = {
    name: change.name?.trim() ?? row.name,
    status,
    updated_at: now,
    disabled_at: status === "active" ? null : (row.disabled_at ?? now),
    disabled_reason: status === "active" ? null : (row.disabled_reason ?? "disabled by the account"),
  };
  await store.transaction(async (tx) => {
    await alertsDb(tx.db).updateTable("alert_destinations").set(next).where("id", "=", id).execute();
    await noteAlertChange(tx.db);
  });
  return { ...row, ...next };
}

/** The ids of the account's rules that send to the destination. */
export async function rulesNaming(db: AlertsDb, account: string, destinationId: number): Promise<number[]> {
  const rules = await db
    .selectFrom("alert_rules")
    .select(["id", "destination_ids"])
    .where("account", "=", account)
    .execute();
  return rules
    .filter((r) => (JSON.parse(r.destination_ids) as number[]).includes(destinationId))
    .map((r) => Number(r.id));
}

/** Deletes a destination no rule names (AlertInvalid names those that do), and cancels its pending deliveries. */
export async function deleteDestination(store: Store, account: string, id: number, nowMs: number): Promise<boolean> {
  const row = await readDestination(store, account, id);
  if (!row) return false;
  const naming = await rulesNaming(alertsDb(store.db), account, id);
  if (naming.length > 0)
    throw new AlertInvalid(
      ["path", "destination_id"],
      `rules ${naming.join(", ")} send to this destination: change or delete them first`,
    );
  await store.transaction(async (transaction) => {
    const tx = alertsDb(transaction.db);
    await tx.deleteFrom("alert_destinations").where("id", "=", id).execute();
    await cancelPendingDeliveries(tx, "destination_id", id, nowMs);
    await noteAlertChange(transaction.db);
  });
  return true;
}
