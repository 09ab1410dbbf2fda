import pg from "pg";
import { vi } from "vitest";
import type { Store } from "../database.js";

/**
 * Test support: the plans of the statements over table `table` that `read` runs, as it runs them: SQLite's steps
 * (`explain query plan`, every parameter 1), PostgreSQL's plan for the same parameters.
 */
export async function plansOf(store: Store, read: () => Promise<unknown>, table: string): Promise<string[]> {
  const statements: [string, unknown[]][] = [];
  const onTable = (text: unknown) => typeof text === "string" && text.includes(table);
  if (store.sqlite) {
    const prepare = vi.spyOn(store.sqlite, "prepare");
    await read();
    for (const [text] of prepare.mock.calls) if (onTable(text)) statements.push([text, []]);
    prepare.mockRestore();
    return statements.map(([text]) =>
      (
        store.sqlite!.prepare(`explain query plan ${text}`).all(...Array.from(text.matchAll(/\?/g), () => 1)) as {
          detail: string;
        }[]
      )
        .map((step) => step.detail)
        .join("\n"),
    );
  }
  const query = vi.spyOn(pg.Client.prototype, "query");
  await read();
  for (const [text, values] of query.mock.calls as unknown as [unknown, unknown[] | undefined][])
    if (onTable(text)) statements.push([text as string, values ?? []]);
  query.mockRestore();
  return store.transaction(async (tx) => {
    if (tx.raw.kind !== "postgres") throw new Error("postgres expected");
    const plans: string[] = [];
    for (const [text, values] of statements) {
      const explained = await tx.raw.client.query(`explain ${text}`, values);
      plans.push(explained.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
    }
    return plans;
  });
}
