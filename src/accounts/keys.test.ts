import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import type { Store } from "../store/database.js";
import { KEY_PREFIX, createKey, listKeys, revokeKey, rotateKey, verifyKey, KeyNotFoundError } from "./keys.js";

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
    const { key } = await createKey(store.db, { account: "verify-co", plan: "premium", rateLimitPerMinute: 1200, now: 100 });
    expect(await verifyKey(store.db, key)).toMatchObject({ status: "valid", account: "verify-co", plan: "premium", rateLimitPerMinute: 1200 });
    const last = key.at(-1) === "a" ? "b" : "a";
    expect(await verifyKey(store.db, key.slice(0, -1) + last)).toEqual({ status: "invalid" });
    expect(await verifyKey(store.db, "pelagic_short")).toEqual({ status: "invalid" });
    expect(await verifyKey(store.db, "")).toEqual({ status: "invalid" });
  });

  it("rotation ends the old key at once and keeps the account and override", async () => {
    const old = await createKey(store.db, { account: "rotor", plan: "premium", rateLimitPerMinute: 50, now: 100 });
    const fresh = await rotateKey(store.db, old.prefix, 200);
    expect(await verifyKey(store.db, old.key)).toEqual({ status: "rotated", prefix: old.prefix });
    expect(await verifyKey(store.db, fresh.key)).toMatchObject({ status: "valid", account: "rotor", rateLimitPerMinute: 50 });
    await expect(rotateKey(store.db, old.prefix, 300)).rejects.toThrow(KeyNotFoundError);
  });

  it("revocation ends a key, and listing shows prefixes and statuses only", async () => {
    const issued = await createKey(store.db, { account: "revoked-co", plan: "free", now: 100 });
    await revokeKey(store.db, issued.prefix, 150);
    expect(await verifyKey(store.db, issued.key)).toEqual({ status: "revoked", prefix: issued.prefix });
    await expect(revokeKey(store.db, issued.prefix, 160)).rejects.toThrow(KeyNotFoundError);
    const listing = await listKeys(store.db, "revoked-co");
    expect(listing).toEqual([
      { prefix: issued.prefix, account: "revoked-co", plan: "free", status: "revoked", rateLimitPerMinute: null, createdAt: 100, endedAt: 150 },
    ]);
  });

  it("creating a key for an existing account sets the account's plan", async () => {
    const free = await createKey(store.db, { account: "upgrader", plan: "free", now: 100 });
    await createKey(store.db, { account: "upgrader", plan: "premium", now: 110 });
    expect(await verifyKey(store.db, free.key)).toMatchObject({ status: "valid", plan: "premium" });
  });
});
