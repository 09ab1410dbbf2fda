/**
 * Closing the app ends the background work it started before anything closes: a reload in flight when
 * `app.close()` is called is waited for, and no read of that app reaches the store once the close has resolved,
 * so the store can be closed (the PostgreSQL schema dropped) at once. The reload is held back at the store: a Kysely
 * plugin on the store the app reads keeps every answer until released, and counts the statements the app starts.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from "kysely";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/index.js";
import { BackgroundWork } from "../../src/platform/background-work.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import type { Store } from "../../src/store/database.js";
import { storeBackends, memoryPlatform } from "../support/backends.js";

/** Holds every answer of the store while `holding`, and counts the statements started. */
class HeldAnswers implements KyselyPlugin {
  started = 0;
  private release: (() => void) | null = null;
  private released: Promise<void> = Promise.resolve();

  hold(): void {
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  let(): void {
    this.release?.();
  }

  transformQuery(args: PluginTransformQueryArgs) {
    this.started++;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs) {
    await this.released;
    return args.result;
  }
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe.each(storeBackends)("closing the app on $kind", (backend) => {
  it("waits for the reload in flight, and no read of the app runs after the close", async () => {
    const { store, dispose } = await backend.open();
    const { platform, dispose: disposePlatform } = await memoryPlatform.open(new ManualClock());
    const answers = new HeldAnswers();
    const held: Store = { ...store, db: store.db.withPlugin(answers) };
    const background = new BackgroundWork();
    const input = { config: loadConfig({ LOG_LEVEL: "silent" }), store: held, platform, expectedSources: [] };
    answers.hold();
    // Over a ready store, the app loads its copy of the whales' positions in the background as soon as it is built
    // (src/api/routes/wallet-insights/wallet-insights.ts): that load's first read is held.
    const app = await buildApp({ ...input, startedAt: 0, background }, createLogger("silent"));
    let closing: Promise<unknown> | undefined;
    try {
      await app.ready();
      await turns(4);
      expect(background.inFlightCount).toBeGreaterThan(0);
      let closed = false;
      closing = app.close().then(() => (closed = true));
      await turns(10);
      expect(closed).toBe(false); // the held read is waited for
      answers.let();
      await closing;
      expect(background.inFlightCount).toBe(0);
      const startedAtClose = answers.started;
      await turns(20);
      expect(answers.started).toBe(startedAtClose);
      // Nothing new starts once closed.
      expect(background.run("late", async () => held.db.selectFrom("markets").selectAll().execute())).toBe(false);
      expect(answers.started).toBe(startedAtClose);
    } finally {
      answers.let();
      await (closing ?? app.close());
      await disposePlatform();
      await dispose();
    }
  }, 30_000);
});
