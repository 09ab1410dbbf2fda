import { gunzipSync } from "node:zlib";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { openTestApp, type TestApp } from "../../test/support/app.js";
import { recordSourceError, saveCheckpoint } from "../store/checkpoints.js";
import { holdUnlistedRecords } from "../store/unlisted-records.js";
import { requestWalletSyncs } from "../store/wallet-sync-requests.js";
import { errorClass } from "./routes/service/health.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../store/derive-state.js";
import { access } from "./access.js";
import { HttpError } from "./errors.js";

let t: TestApp;

beforeAll(async () => {
  t = await openTestApp({
    expectedSources: ["gamma-markets"],
    register: async (app) => {
      app.get(
        "/test/probe",
        {
          config: { access: access.public },
          schema: {
            querystring: Type.Object({
              limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
              include_pending: Type.Boolean({ default: false }),
              sort: Type.Optional(Type.Union([Type.Literal("pnl"), Type.Literal("volume")])),
            }),
          },
        },
        async (request) => request.query,
      );
      app.get("/test/teapot", { config: { access: access.public } }, async () => {
        throw new HttpError(418, "short and stout");
      });
      app.get("/test/crash", { config: { access: access.public } }, async () => {
        throw new Error("secret internals");
      });
      app.post(
        "/test/body",
        {
          config: { access: access.public },
          schema: { body: Type.Object({ wallets: Type.Array(Type.String(), { maxItems: 2 }) }) },
        },
        async (r) => r.body,
      );
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe("health", () => {
  it("answers 200 with version, store kind and readiness", async () => {
    const res = await t.app.inject("/api/v1/health");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: "ok", store: "sqlite", platform: "memory", ready: false });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    // Wherever an ingest runs it syncs wallets too: that source is listed from the start.
    expect(body.sources).toEqual([
      {
        source: "gamma-markets",
        status: "waiting",
        first_sync_done: false,
        lag_seconds: null,
        errors: 0,
        waiting: 0,
        last_error_class: null,
        last_error_hint: null,
        last_error: null,
      },
      {
        source: "wallet-sync",
        status: "waiting",
        first_sync_done: false,
        lag_seconds: null,
        errors: 0,
        waiting: 0,
        last_error_class: null,
        last_error_hint: null,
        last_error: null,
      },
    ]);
  });

  it("turns ready once every expected source finished its first sync and its statistics are written, and reports lag", async () => {
    await saveCheckpoint(t.store.db, "gamma-markets", "offset:100", t.clock.now() - 42, true);
    expect((await t.app.inject("/api/v1/health")).json().ready).toBe(false);
    await writeDeriveState(t.store.db, FIRST_SYNC_DERIVED, 1);
    const body = (await t.app.inject("/api/v1/health")).json();
    expect(body.ready).toBe(true);
    expect(body.sources[0]).toMatchObject({ status: "following", lag_seconds: 42 });
  });

  it("counts what the ingest holds back: chain records of markets Gamma does not list yet, wallet syncs asked for", async () => {
    await t.store.transaction((tx) =>
      holdUnlistedRecords(
        tx,
        [{ key: "chain:0000000001:000000", kind: "fill", marketKey: "123", ts: 1, row: {} }],
        t.clock.now(),
      ),
    );
    await requestWalletSyncs(
      t.store.db,
      ["0x00000000000000000000000000000000000000aa", "0x00000000000000000000000000000000000000bb"],
      t.clock.now(),
    );
    const sources = (await t.app.inject("/api/v1/health")).json().sources as Array<{ source: string; waiting: number }>;
    expect(sources.find((s) => s.source === "wallet-sync")?.waiting).toBe(2);
    await saveCheckpoint(t.store.db, "chain-logs", "block:1", t.clock.now());
    const after = (await t.app.inject("/api/v1/health")).json().sources as Array<{ source: string; waiting: number }>;
    expect(after.find((s) => s.source === "chain-logs")?.waiting).toBe(1);
    await t.store.db.deleteFrom("unlisted_market_records").execute();
    await t.store.db.deleteFrom("wallet_sync_requests").execute();
  });

  it("shows remote callers the class and count of ingest errors, and their full text only to the local host", async () => {
    await recordSourceError(
      t.store.db,
      "chain-logs",
      "rpc eth_getLogs: unavailable after 5 attempt(s) (last HTTP 503) at http://10.20.30.40:8545",
      t.clock.now(),
    );
    const sourceFor = async (remoteAddress: string, headers: Record<string, string> = {}) =>
      (
        (await t.app.inject({ url: "/api/v1/health", remoteAddress, headers })).json().sources as Array<
          Record<string, unknown>
        >
      ).find((s) => s.source === "chain-logs");
    const remote = await sourceFor("198.51.100.7");
    expect(remote).toMatchObject({ errors: 1, last_error_class: "venue_unavailable", last_error: null });
    expect(JSON.stringify(remote)).not.toContain("10.20.30.40");
    expect(await sourceFor("127.0.0.1", { "x-forwarded-for": "198.51.100.7" })).toMatchObject({ last_error: null });
    expect(await sourceFor("127.0.0.1")).toMatchObject({
      last_error_class: "venue_unavailable",
      last_error: expect.stringContaining("10.20.30.40"),
    });
  });

  it.each([
    ["gamma /markets: timed out after 10000 ms", "timeout"],
    ["fetch failed: connect ECONNREFUSED 127.0.0.1:9", "refused"],
    [
      "gamma /events/keyset: unavailable after 5 attempt(s) (last: DNS lookup failed (ENOTFOUND gamma-api.polymarket.com))",
      "dns",
    ],
    ["fetch failed: socket hang up", "network"],
    ["data-api /trades: HTTP 503", "venue_http_5xx"],
    ["data-api /trades: HTTP 404 not found", "venue_http_4xx"],
    ["gamma /markets: unexpected payload shape: /0/id expected string", "venue_shape"],
    ["eth_getLogs: JSON-RPC error -32005: too many logs", "rpc_error"],
    ["data-api /trades offset 0 row 9: bad price", "malformed_record"],
    ["SQLITE_BUSY: database is locked", "store"],
    ["something else", "other"],
  ])("classes %j as %s", (message, expected) => {
    expect(errorClass(message)).toBe(expected);
  });

  it("rejects unknown query parameters with 422 naming them", async () => {
    const res = await t.app.inject("/api/v1/health?bogus=1");
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0].loc).toEqual(["query", "bogus"]);
    expect(res.json().detail[0].type).toBe("extra_forbidden");
  });
});

describe("error conventions", () => {
  it("answers unknown paths with a JSON 404", async () => {
    const res = await t.app.inject("/api/nope");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: "Not Found" });
  });

  it("applies defaults and coerces query types", async () => {
    const res = await t.app.inject("/test/probe?include_pending=1&sort=pnl");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ limit: 100, include_pending: true, sort: "pnl" });
    expect((await t.app.inject("/test/probe?include_pending=false")).json().include_pending).toBe(false);
  });

  it.each([
    ["limit=501", "less_than_equal", "limit"],
    ["limit=0", "greater_than_equal", "limit"],
    ["limit=abc", "int_parsing", "limit"],
    ["include_pending=maybe", "bool_parsing", "include_pending"],
    ["sort=shoe", "enum", "sort"],
  ])("answers %s with 422 %s", async (query, type, name) => {
    const res = await t.app.inject(`/test/probe?${query}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toContainEqual(expect.objectContaining({ loc: ["query", name], type }));
  });

  it("validates bodies with locations inside the body and answers broken JSON with 422", async () => {
    const tooMany = await t.app.inject({ method: "POST", url: "/test/body", payload: { wallets: ["a", "b", "c"] } });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().detail[0]).toMatchObject({ loc: ["body", "wallets"], type: "too_long" });
    const broken = await t.app.inject({
      method: "POST",
      url: "/test/body",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(broken.statusCode).toBe(422);
    expect(broken.json().detail[0].type).toBe("json_invalid");
  });

  it("passes HttpError status and detail through, and hides internals of a 500", async () => {
    const teapot = await t.app.inject("/test/teapot");
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json()).toEqual({ detail: "short and stout" });
    const crash = await t.app.inject("/test/crash");
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toEqual({ detail: "Internal Server Error" });
    expect(crash.body).not.toContain("secret");
  });
});

describe("openapi", () => {
  it("is a valid OpenAPI 3.1 document listing the served paths with their parameters", async () => {
    const res = await t.app.inject("/api/openapi.json");
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/health", "/api/openapi.json"]));
    const limit = doc.paths["/test/probe"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 100 } });
  });

  it("is sent compressed to clients that accept gzip, the same document, with its own ETag", async () => {
    const plain = await t.app.inject("/api/openapi.json");
    const zipped = await t.app.inject({ url: "/api/openapi.json", headers: { "accept-encoding": "gzip" } });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"))).toEqual(plain.json());
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    const again = await t.app.inject({ url: "/api/openapi.json", headers: { "if-none-match": plain.headers.etag } });
    expect(again.statusCode).toBe(304);
  });
});
