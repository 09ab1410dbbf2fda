import { describe, expect, it } from "vitest";
import { ConfigError, describeSettings, loadConfig } from "./index.js";

describe("configuration", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({});
    expect(c.server.port).toBe(8080);
    expect(c.server.host).toBe("127.0.0.1");
    expect(c.store.kind).toBe("sqlite");
    expect(c.store.sqlitePath).toMatch(/data[/\\]pelagic\.sqlite$/);
    expect(c.platform.kind).toBe("memory");
    expect(c.venue.gammaUrl).toBe("https://gamma-api.polymarket.com");
    expect(c.venue.v2CutoverDate).toBe(Date.UTC(2026, 3, 28) / 1000);
    expect(c.farmer.favouriteMinAvgBuyPrice).toBe(0.95);
    expect(c.smart).toMatchObject({
      minResolvedMarkets: 10,
      minWinRate: 55,
      skillMinResolvedMarkets: 30,
      skillMinZ: 2.33,
    });
    expect(c.ledger.profitFactorCap).toBe(99.99);
    expect(c.limits.premiumPerMinute).toBe(600);
  });

  it("refuses a renamed setting, naming the new one", () => {
    expect(() => loadConfig({ FARMER_MINT_MERGE_VOLUME_SHARE: "0.6" })).toThrow(/FARMER_SPLIT_MERGE_VOLUME_SHARE/);
    expect(() => loadConfig({ FARMER_MINT_MERGE_VOLUME_SHARE: "0.6" })).toThrow(ConfigError);
  });

  it("selects PostgreSQL and Redis from their URLs, and flags win over the environment", () => {
    const c = loadConfig(
      { DATABASE_URL: "postgres://u@db:5432/x", REDIS_URL: "redis://cache:6379", PORT: "1" },
      { PORT: "9000" },
    );
    expect(c.store.kind).toBe("postgres");
    expect(c.platform.kind).toBe("redis");
    expect(c.server.port).toBe(9000);
  });

  it.each([
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "8080.5" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ REDIS_URL: "not a url" }, "REDIS_URL"],
    [{ SMART_MIN_WIN_RATE: "101" }, "SMART_MIN_WIN_RATE"],
    [{ ROLE: "worker" }, "ROLE"],
    [{ INGEST: "perhaps" }, "INGEST"],
    [{ VENUE_V2_CUTOVER_DATE: "2026-13-45" }, "VENUE_V2_CUTOVER_DATE"],
    [{ ISW_BUSY_START_HOUR_UTC: "19", ISW_BUSY_END_HOUR_UTC: "13" }, "ISW_BUSY_END_HOUR_UTC"],
  ])("rejects %o naming %s", (env, name) => {
    expect(() => loadConfig(env)).toThrowError(ConfigError);
    expect(() => loadConfig(env)).toThrowError(new RegExp(`^invalid setting ${name}:`));
  });

  it("never prints a database password in an error", () => {
    expect(() => loadConfig({ DATABASE_URL: "mysql://user:hunter2@db/x" })).toThrowError(/^(?!.*hunter2)/);
  });

  it("describes every setting with a unique environment name", () => {
    const all = describeSettings();
    expect(new Set(all.map((s) => s.env)).size).toBe(all.length);
    expect(all.every((s) => s.description.length > 0)).toBe(true);
  });
});
