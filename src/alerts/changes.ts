/**
 * The rules' change counter: every change of a rule or destination moves the `alert_rules` row of `table_changes`
 * (migration 0026) in its own transaction; the matcher reloads its index when the count it read moves.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../store/schema.js";

export async function noteAlertChange(db: Kysely<Database>): Promise<void> {
  await sql`update table_changes set n = n + 1 where name = 'alert_rules'`.execute(db);
}

export async function alertChangeCount(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select n from table_changes where name = 'alert_rules'`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}
