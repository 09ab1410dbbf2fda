/** The refusals of the alerts' own rules, each naming the field it is about (the API answers them 422). */
import { PelagicError } from "../errors/index.js";
import type { AlertsDb } from "./tables.js";

export class AlertInvalid extends PelagicError {
  constructor(
    /** Where in the request: ["body", "filters", "wallets", 2]. */
    readonly loc: readonly (string | number)[],
    message: string,
  ) {
    super("ALERT_INVALID", message);
  }
}

export class AlertLimit extends PelagicError {
  constructor(
    readonly loc: readonly (string | number)[],
    message: string,
  ) {
    super("ALERT_LIMIT", message);
  }
}

/** Refuses a new rule or destination when the account already has `max` (the setting `setting` allows). */
export async function refuseOverLimit(
  db: AlertsDb,
  table: "alert_rules" | "alert_destinations",
  account: string,
  max: number,
  setting: string,
): Promise<void> {
  const count = await db
    .selectFrom(table)
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("account", "=", account)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= max) {
    const what = table === "alert_rules" ? "rules" : "destinations";
    throw new AlertLimit(["body"], `this account has ${max} ${what}, as many as ${setting} allows: delete one first`);
  }
}
