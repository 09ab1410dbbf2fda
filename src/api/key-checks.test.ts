import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { TEST_REDIS_URL, platformBackends, storeBackends, sqliteBackend } from "../../test/support/backends.js";
import { buildApp } from "./app.js";
import { loadConfig } from "../config/index.js";
import { ManualClock } from "../platform/clock.js";
import type { Platform } from "../platform/index.js";
import { createLogger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { KeyChecks } from "./key-checks.js";
import { KEY_CHANGES_CHANNEL, announcerOn, createKey, revokeKey, rotateKey, setAccountPlan } from "../accounts/keys.js";

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (disposers.length) await disposers.pop()?.();
});

interface Apps {
  store: Store;
  platform: Platform;
  clock: ManualClock;
  /** Two apps on the one store and platform, as two API processes on one database and one Redis. */
  apps: [FastifyInstance, FastifyInstance];
  /** Listens for the next key-change announcement: `arrival` resolves once the platform delivered it (Redis delivers after PUBLISH returns). */
  delivered(): Promise<{ arrival: Promise<void> }>;
}

async function openApps(
  storeBackend: (typeof storeBackends)[number],
  platformBackend: (typeof platformBackends)[number],
  keptSeconds: number,
): Promise<Apps> {
  const clock = new ManualClock();
  const { store, dispose: disposeStore } = await storeBackend.open();
  disposers.push(disposeStore);
  const { platform, dispose: disposePlatform } = await platformBackend.open(clock);
  disposers.push(disposePlatform);
  const config = loadConfig({ LOG_LEVEL: "silent", KEY_CHECK_CACHE_SECONDS: String(keptSeconds) });
  const build = async () => {
    const app = await buildApp(
      { config, store, platform, expectedSources: [], startedAt: clock.now() },
      createLogger("silent"),
    );
    await app.ready();
    disposers.push(() => app.close());
    return app;
  };
  const apps: [FastifyInstance, FastifyInstance] = [await build(), await build()];
  const delivered = async () => {
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const stop = await platform.pubsub.subscribe(KEY_CHANGES_CHANNEL, () => arrived());
    disposers.push(stop);
    return { arrival };
  };
  return { store, platform, clock, apps, delivered };
}

async function verify(app: FastifyInstance, key: string) {
  const res = await app.inject({ method: "GET", url: "/api/v2/key/verify", headers: { "x-api-key": key } });
  expect(res.statusCode).toBe(200);
  return res.json() as { valid: boolean; problem: string | null; plan: string | null; rate_limit: { limit: number } };
}

describe.each(storeBackends)("key checks kept per process, on $kind", (storeBackend) => {
  describe.each(platformBackends)("with the $kind platform", (platformBackend) => {
    it("refuses a revoked key from the very next request, in the app that saw it valid and in another", async () => {
      const t = await openApps(storeBackend, platformBackend, 300);
      const issued = await createKey(t.store.db, { account: "leaver", plan: "premium", now: t.clock.now() });
      for (const app of t.apps) expect(await verify(app, issued.key)).toMatchObject({ valid: true });
      // Five minutes of keeping: only the announcement can explain a refusal now.
      const { arrival } = await t.delivered();
      await revokeKey(t.store.db, issued.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
      await arrival;
      for (const app of t.apps) expect(await verify(app, issued.key)).toMatchObject({ problem: "revoked_key" });
    });

    it("refuses a rotated key from the very next request in both apps, and takes its successor at once", async () => {
      const t = await openApps(storeBackend, platformBackend, 300);
      const issued = await createKey(t.store.db, { account: "rotor", plan: "premium", now: t.clock.now() });
      for (const app of t.apps) expect(await verify(app, issued.key)).toMatchObject({ valid: true });
      const { arrival } = await t.delivered();
      const fresh = await rotateKey(t.store.db, issued.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
      await arrival;
      for (const app of t.apps) {
        expect(await verify(app, issued.key)).toMatchObject({ problem: "rotated_key" });
        expect(await verify(app, fresh.key)).toMatchObject({ valid: true, plan: "premium" });
      }
    });

    it("answers with an announced plan change at once, and with one made by hand within the time kept", async () => {
      const t = await openApps(storeBackend, platformBackend, 5);
      const issued = await createKey(t.store.db, { account: "switcher", plan: "premium", now: t.clock.now() });
      const [a, b] = t.apps;
      expect(await verify(a, issued.key)).toMatchObject({ plan: "premium", rate_limit: { limit: 600 } });
      const { arrival } = await t.delivered();
      await setAccountPlan(t.store.db, "switcher", "free", announcerOn(t.platform.pubsub));
      await arrival;
      expect(await verify(a, issued.key)).toMatchObject({ plan: "free", problem: "subscription" });

      // By hand, nothing is announced: the kept check answers until it ends.
      await t.store.db.updateTable("accounts").set({ plan: "premium" }).where("name", "=", "switcher").execute();
      await t.store.db.updateTable("api_keys").set({ rate_limit_per_minute: 42 }).execute();
      expect(await verify(b, issued.key)).toMatchObject({ plan: "premium", rate_limit: { limit: 42 } });
      expect(await verify(a, issued.key)).toMatchObject({ plan: "free" });
      t.clock.advance(5_000);
      expect(await verify(a, issued.key)).toMatchObject({ plan: "premium", rate_limit: { limit: 42 } });
    });
  });
});

describe.each(platformBackends.filter((p) => p.kind === "redis"))("key checks over Redis", (platformBackend) => {
  it("are forgotten when the connection that hears announcements drops, so that a change missed meanwhile counts", async () => {
    const t = await openApps(sqliteBackend, platformBackend, 300);
    const issued = await createKey(t.store.db, { account: "gap", plan: "premium", now: t.clock.now() });
    const [a] = t.apps;
    expect(await verify(a, issued.key)).toMatchObject({ valid: true });
    // Revoked with nothing announced: only forgetting on the drop can explain a refusal within the five minutes kept.
    await t.store.db.updateTable("api_keys").set({ status: "revoked" }).execute();
    expect(await verify(a, issued.key)).toMatchObject({ valid: true });

    const gaps: boolean[] = [];
    const back = new Promise<void>((resolve) => {
      const stop = t.platform.pubsub.onGap((listening) => {
        gaps.push(listening);
        if (listening) {
          stop();
          resolve();
        }
      });
    });
    await killConnection(`${t.platform.redisPrefix}subscriber`);
    await back;
    expect(gaps).toEqual([false, true]);
    expect(await verify(a, issued.key)).toMatchObject({ problem: "revoked_key" });

    // Back and listening: announcements drop kept checks again.
    const fresh = await createKey(t.store.db, { account: "gap", plan: "premium", now: t.clock.now() });
    expect(await verify(a, fresh.key)).toMatchObject({ valid: true });
    const { arrival } = await t.delivered();
    await revokeKey(t.store.db, fresh.prefix, t.clock.now(), announcerOn(t.platform.pubsub));
    await arrival;
    expect(await verify(a, fresh.key)).toMatchObject({ problem: "revoked_key" });
  });
});

/** Closes a Redis client connection by its name, from the server's side (as a restart or a network drop would). */
async function killConnection(name: string): Promise<void> {
  const admin = new Redis(TEST_REDIS_URL as string);
  try {
    const list = (await admin.client("LIST")) as string;
    const line = list.split("\n").find((l) => l.includes(` name=${name} `));
    const id = line?.match(/^id=(\d+)/)?.[1];
    expect(id, `a connection named ${name}`).toBeDefined();
    await admin.client("KILL", "ID", id as string);
  } finally {
    admin.disconnect();
  }
}

describe("the kept key checks", () => {
  const open = async (keptSeconds: number) => {
    const { store, dispose } = await sqliteBackend.open();
    disposers.push(dispose);
    const clock = new ManualClock();
    const checks = new KeyChecks(store.db, clock, { keyCheckCacheSeconds: keptSeconds, keyCheckCacheEntries: 3 });
    return { store, clock, checks };
  };

  it("hold a key's hash and outcome, never the key or its secret", async () => {
    const { store, clock, checks } = await open(5);
    const issued = await createKey(store.db, { account: "private", plan: "premium", now: clock.now() });
    expect(await checks.check(issued.key)).toMatchObject({ status: "valid" });
    expect(checks.size).toBe(1);
    const held = JSON.stringify([...(checks["kept"]!["slots"] as Map<string, unknown>)]);
    expect(held).toContain(issued.prefix);
    expect(held).not.toContain(issued.key);
    expect(held).not.toContain(issued.key.slice(issued.prefix.length));
  });

  it("keep no unknown key, so that random keys cannot fill them, and at most their bound of known ones", async () => {
    const { store, clock, checks } = await open(5);
    for (let i = 0; i < 20; i++) {
      expect(await checks.check(`pelagic_${String(i).padStart(42, "x")}`)).toEqual({ status: "invalid" });
    }
    expect(checks.size).toBe(0);
    const keys = [];
    for (let i = 0; i < 5; i++)
      keys.push(await createKey(store.db, { account: "many", plan: "free", now: clock.now() }));
    for (const { key } of keys) await checks.check(key);
    expect(checks.size).toBe(3);
  });

  it("keep nothing with KEY_CHECK_CACHE_SECONDS=0, and each check for its seconds only", async () => {
    const off = await open(0);
    const issued = await createKey(off.store.db, { account: "off", plan: "premium", now: off.clock.now() });
    await off.checks.check(issued.key);
    expect(off.checks.size).toBe(0);

    const on = await open(5);
    const kept = await createKey(on.store.db, { account: "on", plan: "premium", now: on.clock.now() });
    await on.checks.check(kept.key);
    expect(on.checks.size).toBe(1);
    on.clock.advance(5_000);
    await on.store.db.updateTable("api_keys").set({ status: "revoked" }).execute();
    expect(await on.checks.check(kept.key)).toMatchObject({ status: "revoked" });
  });

  it("do not keep a check read while a change was announced (it may predate the change)", async () => {
    const { store, clock, checks } = await open(3600);
    const issued = await createKey(store.db, { account: "racer", plan: "premium", now: clock.now() });
    const reading = checks.check(issued.key);
    checks.forgetAll();
    expect(await reading).toMatchObject({ status: "valid" });
    expect(checks.size).toBe(0);
  });
});
