import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { TEST_REDIS_URL, deleteRedisPrefix, uniqueName } from "../../test/support/backends.js";
import { KEY_CHANGES_CHANNEL, KeyChangeNotAnnouncedError, verifyKey } from "../accounts/keys.js";
import { loadConfig, storeDescription } from "../config/index.js";
import { createPlatform } from "../platform/index.js";
import { openConfiguredStore } from "../runtime/index.js";
import { keysCommand } from "./keys.js";

/** Runs `pelagic keys <action>` in this process with the given settings: what it printed. */
async function keys(env: Record<string, string>, action: string, flags: Record<string, string>): Promise<string> {
  const out: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void out.push(parts.join(" ")));
  try {
    await keysCommand.run(loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: "", ...env }), flags, [action]);
    return out.join("\n");
  } finally {
    log.mockRestore();
  }
}

const dir = mkdtempSync(join(tmpdir(), "pelagic-keys-announce-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function createdKey(env: Record<string, string>, account: string): Promise<{ key: string; prefix: string }> {
  const key = /key:\s+(pelagic_\S+)/.exec(await keys(env, "create", { account, plan: "premium" }))?.[1] as string;
  return { key, prefix: key.slice(0, "pelagic_".length + 10) };
}

describe.runIf(TEST_REDIS_URL)("pelagic keys with REDIS_URL", () => {
  const prefix = uniqueName("pelagic_keys") + ":";
  const env = { DATA_DIR: join(dir, "redis"), REDIS_URL: TEST_REDIS_URL as string, REDIS_PREFIX: prefix };
  afterAll(() => deleteRedisPrefix(TEST_REDIS_URL as string, prefix));

  it("announces a revocation, a rotation and a plan change to the API processes, and never a key", async () => {
    const listener = await createPlatform(loadConfig(env).platform);
    const heard: string[] = [];
    await listener.pubsub.subscribe(KEY_CHANGES_CHANNEL, (message) => heard.push(message));
    try {
      const first = await createdKey(env, "announced");
      const second = await createdKey(env, "announced");
      await keys(env, "revoke", { key: first.prefix });
      await keys(env, "rotate", { key: second.prefix });
      await keys(env, "plan", { account: "announced", plan: "free" });
      await vi.waitFor(() => expect(heard).toEqual(["revoked", "rotated", "plan"]));
    } finally {
      await listener.close();
    }
  });
});

describe("pelagic keys when Redis cannot be reached", () => {
  const env = { DATA_DIR: join(dir, "unreachable"), REDIS_URL: "redis://127.0.0.1:1" };

  it("revokes the key in the store all the same, and fails saying the API processes were not told", async () => {
    const issued = await createdKey(env, "stranded");
    await expect(keys(env, "revoke", { key: issued.prefix })).rejects.toThrow(KeyChangeNotAnnouncedError);
    const store = await openConfiguredStore(loadConfig({ ...env, DATABASE_URL: "" }));
    try {
      expect(await verifyKey(store.db, issued.key)).toEqual({ status: "revoked", prefix: issued.prefix });
    } finally {
      await store.close();
    }
  });
});

describe("pelagic keys revoke, given the whole key", () => {
  const env = { DATA_DIR: join(dir, "whole") };

  it("revokes it and prints only its prefix, never the secret part", async () => {
    const issued = await createdKey(env, "whole-key");
    const printed = await keys(env, "revoke", { key: issued.key });
    expect(printed).toBe(`revoked ${issued.prefix}`);
    expect(printed).not.toContain(issued.key);
    await expect(keys(env, "revoke", { key: issued.key })).rejects.toThrow(`no active key ${issued.prefix}`);
    await expect(keys(env, "revoke", { key: issued.key })).rejects.not.toThrow(issued.key);
  });
});

describe("pelagic keys create, without DATA_DIR or DATABASE_URL pointing elsewhere", () => {
  const env = { DATA_DIR: join(dir, "told") };

  it("prints the store it wrote the key to, so a key made for another server's store is found out", async () => {
    const printed = await keys(env, "create", { account: "told", plan: "premium" });
    expect(printed).toContain(`store:   SQLite ${join(dir, "told", "pelagic.sqlite")} (DATA_DIR)`);
    const rotated = await keys(env, "rotate", { key: /key:\s+(pelagic_\S{10})/.exec(printed)![1]! });
    expect(rotated).toContain(`SQLite ${join(dir, "told", "pelagic.sqlite")} (DATA_DIR)`);
  });

  it("names a PostgreSQL store by its URL without the password", async () => {
    const config = loadConfig({ DATABASE_URL: "postgres://pelagic:s3cret@db.internal:5432/pelagic" });
    expect(storeDescription(config.store)).toBe(
      "PostgreSQL postgres://pelagic:***@db.internal:5432/pelagic (DATABASE_URL)",
    );
  });
});
