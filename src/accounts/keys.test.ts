import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import type { Store } from "../store/database.js";
import {
  AccountError,
  KEY_PREFIX,
  createKey,
  listKeys,
  revokeAccountKeys,
  revokeKey,
  rotateKey,
  setAccountPlan,
  verifyKey,
  KeyChangeNotAnnouncedError,
  KeyNotFoundError,
  type KeyChange,
} from "./keys.js";

/** What the key changes of a test announced. */
const announced: KeyChange[] = [];
const announcer = async (change: KeyChange) => void announced.push(change);

describe.each(storeBackends)("API keys on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose());

  it("issues a prefixed random key and stores only its hash", async () => {
    const a = await createKey(store.db, { account: "acme", plan: "premium", now: 100 });
    const b = await createKey(store.db, { account: "acme", plan: "premium", now: 100 });
    expect(a.key).toMatch(/^pelagic_[0-9A-Za-z]{42}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.prefix).toBe(a.key.slice(0, KEY_PREFIX.length + 10));
    const rows = await store.db.selectFrom("api_keys").selectAll().execute();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(a.key);
    expect(stored).not.toContain(a.key.slice(KEY_PREFIX.length + 10));
  });

  it("verifies a valid key with its account and plan, and rejects a tampered one", async () => {
    const { key } = await createKey(store.db, {
      account: "verify-co",
      plan: "premium",
      rateLimitPerMinute: 1200,
      now: 100,
    });
    expect(await verifyKey(store.db, key)).toMatchObject({
      status: "valid",
      account: "verify-co",
      plan: "premium",
      rateLimitPerMinute: 1200,
    });
    const last = key.at(-1) === "a" ? "b" : "a";
    expect(await verifyKey(store.db, key.slice(0, -1) + last)).toEqual({ status: "invalid" });
    expect(await verifyKey(store.db, "pelagic_short")).toEqual({ status: "invalid" });
    expect(await verifyKey(store.db, "")).toEqual({ status: "invalid" });
  });

  it("rotation ends the old key at once and keeps the account and override", async () => {
    const old = await createKey(store.db, { account: "rotor", plan: "premium", rateLimitPerMinute: 50, now: 100 });
    const fresh = await rotateKey(store.db, old.prefix, 200, announcer);
    expect(await verifyKey(store.db, old.key)).toEqual({ status: "rotated", prefix: old.prefix });
    expect(await verifyKey(store.db, fresh.key)).toMatchObject({
      status: "valid",
      account: "rotor",
      rateLimitPerMinute: 50,
    });
    await expect(rotateKey(store.db, old.prefix, 300, announcer)).rejects.toThrow(KeyNotFoundError);
    expect(announced.splice(0)).toEqual(["rotated"]);
  });

  it("revocation ends a key, and listing shows prefixes and statuses only", async () => {
    const issued = await createKey(store.db, { account: "revoked-co", plan: "free", now: 100 });
    await revokeKey(store.db, issued.prefix, 150, announcer);
    expect(await verifyKey(store.db, issued.key)).toEqual({ status: "revoked", prefix: issued.prefix });
    await expect(revokeKey(store.db, issued.prefix, 160, announcer)).rejects.toThrow(KeyNotFoundError);
    expect(announced.splice(0)).toEqual(["revoked"]);
    const listing = await listKeys(store.db, "revoked-co");
    expect(listing).toEqual([
      {
        prefix: issued.prefix,
        account: "revoked-co",
        plan: "free",
        status: "revoked",
        rateLimitPerMinute: null,
        createdAt: 100,
        endedAt: 150,
      },
    ]);
  });

  it("revokes every active key of one account (the demo's earlier runs), and no other account's", async () => {
    const runs = [
      await createKey(store.db, { account: "demo-run", plan: "premium", now: 100 }),
      await createKey(store.db, { account: "demo-run", plan: "premium", now: 200 }),
    ];
    const other = await createKey(store.db, { account: "bystander", plan: "premium", now: 200 });
    expect(await revokeAccountKeys(store.db, "demo-run", 300)).toBe(2);
    for (const run of runs) expect((await verifyKey(store.db, run.key)).status).toBe("revoked");
    expect((await verifyKey(store.db, other.key)).status).toBe("valid");
    const next = await createKey(store.db, { account: "demo-run", plan: "premium", now: 300 });
    expect((await verifyKey(store.db, next.key)).status).toBe("valid");
    expect(await revokeAccountKeys(store.db, "nobody", 300)).toBe(0);
  });

  it("refuses a key whose plan differs from its existing account's, and changes a plan only when asked to", async () => {
    const premium = await createKey(store.db, { account: "upgrader", plan: "premium", now: 100 });
    await expect(createKey(store.db, { account: "upgrader", plan: "free", now: 110 })).rejects.toThrow(
      /keys plan --account upgrader --plan free/,
    );
    expect(await verifyKey(store.db, premium.key)).toMatchObject({ status: "valid", plan: "premium" });
    expect(await listKeys(store.db, "upgrader")).toHaveLength(1);
    expect(await setAccountPlan(store.db, "upgrader", "free", announcer)).toEqual({ previous: "premium", keys: 1 });
    expect(await verifyKey(store.db, premium.key)).toMatchObject({ status: "valid", plan: "free" });
    await expect(setAccountPlan(store.db, "nobody", "free", announcer)).rejects.toThrow(AccountError);
    expect(announced.splice(0)).toEqual(["plan"]);
  });

  it("keeps a revocation whose announcement failed, and says so", async () => {
    const issued = await createKey(store.db, { account: "unannounced", plan: "premium", now: 100 });
    const failing = async () => {
      throw new Error("connection refused");
    };
    await expect(revokeKey(store.db, issued.prefix, 150, failing)).rejects.toThrow(KeyChangeNotAnnouncedError);
    await expect(revokeKey(store.db, issued.prefix, 150, failing)).rejects.toThrow(KeyNotFoundError);
    expect(await verifyKey(store.db, issued.key)).toEqual({ status: "revoked", prefix: issued.prefix });
  });

  it.each([["tab\tforged\tpremium"], ["new\nline"], ["bidi\u202Eoverride"], [""], ["   "], ["x".repeat(65)]])(
    "refuses the account name %j",
    async (name) => {
      await expect(createKey(store.db, { account: name, plan: "free", now: 100 })).rejects.toThrow(AccountError);
    },
  );

  it.each([[0], [-5], [1.5], [100_001], [1e21]])("refuses a rate limit of %s per minute", async (perMinute) => {
    await expect(
      createKey(store.db, { account: "limits", plan: "free", rateLimitPerMinute: perMinute, now: 100 }),
    ).rejects.toThrow(AccountError);
  });
});
