/**
 * Runs once per vitest run, in its main process (vitest's globalSetup): names the run for the workers (`inject`),
 * and drops the PostgreSQL template databases they migrated under that name (test/support/backends.ts).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    testRun: string;
  }
}

export function setup(project: TestProject): () => Promise<void> {
  const run = randomBytes(4).toString("hex");
  project.provide("testRun", run);
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`pelagic_template_${run}_%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await client.end();
    }
  };
}
