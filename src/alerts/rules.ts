/**
 * An account's alert rules: a kind, its filters (rule-kinds.ts), the destinations it sends to (the account's own,
 * at least one), active or paused. Every change moves the rules' change counter in its transaction, so the
 * matcher in the process that ingests reloads them.
 */
import { cancelPendingDeliveries } from "./delivery-rows.js";
import type { Config } from "../config/index.js";
import type { Store, StoreTransaction } from "../store/database.js";
import { AlertInvalid, refuseOverLimit } from "./alert-errors.js";
import { noteAlertChange } from "./changes.js";
import { normalizeFilters, type FiltersInput, type RuleFilters } from "./rule-kinds.js";
import type { Selectable } from "kysely";
import { alertsDb, type AlertRulesTable, type RuleKind, type RuleStatus, type WebhookFormat } from "./tables.js";

export interface RuleInput {
  readonly name: string;
  readonly kind: RuleKind;
  readonly filters: FiltersInput;
  readonly destination_ids: readonly number[];
  readonly paused?: boolean;
}

export interface Rule {
  readonly id: number;
  readonly account: string;
  readonly name: string;
  readonly kind: RuleKind;
  readonly filters: RuleFilters;
  readonly destination_ids: readonly number[];
  readonly status: RuleStatus;
  readonly created_at: number;
  readonly updated_at: number;
  readonly webhook_format: WebhookFormat;
}

type RuleRow = Omit<Selectable<AlertRulesTable>, "id"> & { id: number | string };

export function ruleOf(row: RuleRow): Rule {
  const filters = JSON.parse(row.filters) as RuleFilters;
  return {
    ...row,
    id: Number(row.id),
    filters: {
      ...filters,
      min_points: filters.min_points ?? null,
      window_minutes: filters.window_minutes ?? null,
      cities: filters.cities ?? [],
      min_severity: filters.min_severity ?? null,
      min_score: filters.min_score ?? null,
    },
    destination_ids: JSON.parse(row.destination_ids) as number[],
  };
}

/** The destination ids, checked to be the account's own. */
async function accountDestinations(store: Store, account: string, ids: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  if (wanted.length === 0)
    throw new AlertInvalid(["body", "destination_ids"], "a rule sends to at least one destination");
  const owned = await alertsDb(store.db)
    .selectFrom("alert_destinations")
    .select("id")
    .where("account", "=", account)
    .where("id", "in", wanted)
    .execute();
  const known = new Set(owned.map((row) => Number(row.id)));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new AlertInvalid(
      ["body", "destination_ids"],
      `no destination ${unknown.join(", ")} in this account (GET /api/v2/alerts/destinations lists them)`,
    );
  return wanted;
}

export async function createRule(
  store: Store,
  input: { account: string; rule: RuleInput; now: number; settings: Config["alerts"] },
): Promise<Rule> {
  const filters = normalizeFilters(input.rule.kind, input.rule.filters, input.settings);
  const destinations = await accountDestinations(store, input.account, input.rule.destination_ids);
  return store.transaction(async (transaction) => {
    const db = alertsDb(transaction.db);
    await refuseOverLimit(db, "alert_rules", input.account, input.settings.rulesPerAccount, "ALERTS_RULES_PER_ACCOUNT");
    const values = {
      account: input.account,
      name: input.rule.name.trim(),
      kind: input.rule.kind,
      filters: JSON.stringify(filters),
      destination_ids: JSON.stringify(destinations),
      status: input.rule.paused ? ("paused" as const) : ("active" as const),
      created_at: input.now,
      updated_at: input.now,
      webhook_format: "alert" as const,
    };
    const { id } = await db.insertInto("alert_rules").values(values).returning("id").executeTakeFirstOrThrow();
    await noteAlertChange(transaction.db);
    return ruleOf({ ...values, id });
  });
}

export async function listRules(store: Store, account: string): Promise<Rule[]> {
  const rows = await alertsDb(store.db)
    .selectFrom("alert_rules")
    .selectAll()
    .where("account", "=", account)
    .orderBy("id")
    .execute();
  return rows.map(ruleOf);
}

export async function readRule(store: Store, account: string, id: number): Promise<Rule | null> {
  const row = await alertsDb(store.db)
    .selectFrom("alert_rules")
    .selectAll()
    .where("account", "=", account)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? ruleOf(row) : null;
}

/** Changes what the request names (the filters replaced whole, checked against the rule's kind); null when no such rule. */
export async function updateRule(
  store: Store,
  input: {
    account: string;
    id: number;
    change: Partial<Omit<RuleInput, "kind">>;
    now: number;
    settings: Config["alerts"];
  },
): Promise<Rule | null> {
  const rule = await readRule(store, input.account, input.id);
  if (!rule) return null;
  const { change } = input;
  const filters = change.filters ? normalizeFilters(rule.kind, change.filters, input.settings) : rule.filters;
  const destinations = change.destination_ids
    ? await accountDestinations(store, input.account, change.destination_ids)
    : rule.destination_ids;
  const status: RuleStatus = change.paused === undefined ? rule.status : change.paused ? "paused" : "active";
  const next = {
    name: change.name?.trim() ?? rule.name,
    filters: JSON.stringify(filters),
    destination_ids: JSON.stringify(destinations),
    status,
    updated_at: input.now,
  };
  await store.transaction(async (transaction) => {
    await alertsDb(transaction.db).updateTable("alert_rules").set(next).where("id", "=", input.id).execute();
    await noteAlertChange(transaction.db);
  });
  return { ...rule, ...next, filters, destination_ids: destinations };
}

/** Deletes a rule and cancels its pending deliveries; false when the account has no such rule. */
export async function deleteRule(store: Store, account: string, id: number, nowMs: number): Promise<boolean> {
  return store.transaction((transaction) => deleteRuleIn(transaction, account, id, nowMs));
}

/** deleteRule inside the caller's transaction. */
export async function deleteRuleIn(
  transaction: StoreTransaction,
  account: string,
  id: number,
  nowMs: number,
): Promise<boolean> {
  const db = alertsDb(transaction.db);
  const deleted = await db
    .deleteFrom("alert_rules")
    .where("account", "=", account)
    .where("id", "=", id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return false;
  await cancelPendingDeliveries(db, "rule_id", id, nowMs);
  await noteAlertChange(transaction.db);
  return true;
}
