/**
 * Who may call the Premium drill-downs (issue 25): every one needs a Premium key (401 without one or with a revoked
 * one, 403 on the Free plan); /api/v2 reads it from X-API-Key only, /api/public/v1 from X-API-Key or Bearer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { busiestPair, get, openDrilldownWorld, worldFills, type Fixture } from "../support/api/drilldowns.js";

let f: Fixture;
let v2: string[];
let v1: string[];

beforeAll(async () => {
  f = await openDrilldownWorld();
  const { wallet, conditionId } = busiestPair(worldFills(f.w.world));
  const before = f.w.now + 1;
  v2 = [
    `/api/v2/whale/${wallet}/history`,
    `/api/v2/whale/${wallet}/backtest`,
    `/api/v2/wallet/${wallet}/market-trades?market=${conditionId}&after=0&before=${before}`,
    `/api/v2/market/${conditionId}/whale-trades?before=0`,
    `/api/v2/wallet/${wallet}/market-summary/${conditionId}`,
  ];
  v1 = [
    `/api/public/v1/wallet/${wallet}/market-trades?market=${conditionId}&before=${before}`,
    `/api/public/v1/market/${conditionId}/whale-trades?before=0`,
    `/api/public/v1/wallet/${wallet}/market-summary/${conditionId}`,
  ];
}, 120_000);
afterAll(async () => f?.w.close());

describe("Premium drill-downs: keys, plans and headers", () => {
  it("answers 401 without a key or with an invalid one, and 403 on a Free plan, on every route", async () => {
    for (const url of [...v2, ...v1]) {
      expect((await get(f, url, {})).status, url).toBe(401);
      expect((await get(f, url, { "x-api-key": "pelagic_notakey" })).status, url).toBe(401);
      const free = await get(f, url, { "x-api-key": f.free });
      expect(free.status, url).toBe(403);
      expect(free.body.detail).toMatch(/Premium/);
    }
  });

  it("reads X-API-Key only under /api/v2, and either header under /api/public/v1", async () => {
    for (const url of v2) {
      expect((await get(f, url, { "x-api-key": f.premium })).status, url).toBe(200);
      const bearer = await get(f, url, { authorization: `Bearer ${f.premium}` });
      expect(bearer.status, url).toBe(401);
      expect(bearer.body.detail).toMatch(/header/);
    }
    for (const url of v1) {
      expect((await get(f, url, { "x-api-key": f.premium })).status, url).toBe(200);
      expect((await get(f, url, { authorization: `Bearer ${f.premium}` })).status, url).toBe(200);
    }
  });

  it("lists every route in the OpenAPI document with its response schema and security", async () => {
    const doc = (await get(f, "/api/openapi.json", {})).body;
    const paths = [
      "/api/v2/whale/{address}/history",
      "/api/v2/whale/{address}/backtest",
      "/api/v2/wallet/{address}/market-trades",
      "/api/v2/market/{condition_id}/whale-trades",
      "/api/v2/wallet/{address}/market-summary/{condition_id}",
      "/api/public/v1/wallet/{address}/market-trades",
      "/api/public/v1/market/{condition_id}/whale-trades",
      "/api/public/v1/wallet/{address}/market-summary/{condition_id}",
    ];
    for (const path of paths) {
      const op = doc.paths[path]?.get;
      expect(op, path).toBeDefined();
      expect(op.responses["200"].content["application/json"].schema, path).toBeDefined();
      expect(op.responses["401"], path).toBeDefined();
      expect(op.responses["403"], path).toBeDefined();
    }
    const required = (path: string) =>
      doc.paths[path].get.parameters
        .filter((p: any) => p.required && p.in === "query")
        .map((p: any) => p.name)
        .sort();
    expect(required("/api/v2/wallet/{address}/market-trades")).toEqual(["after", "before", "market"]);
    expect(required("/api/public/v1/wallet/{address}/market-trades")).toEqual(["before", "market"]);
    expect(required("/api/v2/market/{condition_id}/whale-trades")).toEqual(["before"]);
    expect(required("/api/public/v1/market/{condition_id}/whale-trades")).toEqual(["before"]);
  });
});
