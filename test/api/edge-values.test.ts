/**
 * Every parameter (and JSON body) of every operation of the served OpenAPI document, called with edge values (infinities,
 * overflows, fractions, blanks, very long text), on every store backend: no answer is a 5xx, and a number that is
 * not a finite decimal (or, for an integer, not a whole one within ±(2^53 - 1)) is a 422 naming the parameter, and
 * every refusal is in the contract's shape (`{"detail": text}`, or a 422's list of issues), a URL that does not
 * decode included.
 * The operations come from the document, so a new route is covered without anyone remembering to.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { storeBackends } from "../support/backends.js";
import { operationSubjects, valueFor, type OperationSubjects } from "../support/api/operations.js";
import { openWorldApp, type WorldApp } from "../support/world-app.js";

/** Streams stay open by design; they have tests of their own. */
const SKIPPED = [/\/live\//];

const EDGE_VALUES = [
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "NaN",
  "1e20",
  "-1e20",
  "9007199254740993",
  "1.5",
  "-1",
  "0",
  "",
  " ",
  "0x10",
  "1_000",
  "x".repeat(4_000),
  "%00",
  "\u0000",
  "😀",
  "[]",
  "' or 1=1 --",
];
/** Values no number parameter may accept. */
const NOT_A_NUMBER = ["Infinity", "-Infinity", "1e309", "-1e309", "NaN", "", " ", "0x10", "1_000"];
const NOT_AN_INTEGER = [...NOT_A_NUMBER, "1e20", "-1e20", "9007199254740993", "1.5"];

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; anyOf?: Array<{ type?: string }> };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
}

/** Why an error answer is not in the contract's shape, or null when it is (or is no error). */
function shapeProblem(response: { statusCode: number; body: string }): string | null {
  if (response.statusCode < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `a body that is not JSON: ${response.body.slice(0, 80)}`;
  }
  const keys = body && typeof body === "object" ? Object.keys(body) : [];
  const detail = (body as { detail?: unknown }).detail;
  const fits =
    keys.length === 1 &&
    keys[0] === "detail" &&
    (response.statusCode === 422 ? Array.isArray(detail) : typeof detail === "string");
  return fits ? null : `a body not in the contract's shape: ${response.body.slice(0, 120)}`;
}

const typeOf = (p: Parameter) => p.schema?.type ?? p.schema?.anyOf?.find((s) => s.type && s.type !== "null")?.type;

describe.each(storeBackends)("edge values in every parameter on $kind", (backend) => {
  let w: WorldApp;
  let key: string;
  let wallet: string;
  let subjects: OperationSubjects;

  beforeAll(async () => {
    w = await openWorldApp({
      storeBackend: backend,
      env: { RATE_FREE_PER_MINUTE: "100000000", RATE_PREMIUM_PER_MINUTE: "100000000" },
    });
    key = (await createKey(w.store.db, { account: "edge-values", plan: "premium", now: w.now })).key;
    subjects = await operationSubjects(w.store, w.now);
    wallet = subjects.wallet;
  }, 120_000);
  afterAll(async () => w?.close());

  const validValue = (p: Parameter) => valueFor(subjects, p.name, typeOf(p));

  it("answers every edge value below 500, and refuses malformed numbers with a 422 naming the parameter", async () => {
    const doc = (await w.app.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const failures: string[] = [];
    let calls = 0;
    let numberParameters = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      if (SKIPPED.some((skip) => skip.test(template))) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = (operation.parameters ?? []).filter((p) => p.in === "query" || p.in === "path");
        for (const target of parameters) {
          const type = typeOf(target);
          if (type === "integer" || type === "number") numberParameters++;
          for (const edge of EDGE_VALUES) {
            const query = new URLSearchParams();
            for (const p of parameters)
              if (p.in === "query" && (p === target || p.required))
                query.set(p.name, p === target ? edge : validValue(p));
            const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
              encodeURIComponent(
                name === target.name && target.in === "path" ? edge : validValue({ name, in: "path" }),
              ),
            );
            const url = query.size > 0 ? `${path}?${query}` : path;
            const response = await w.app.inject({
              method: method.toUpperCase() as "GET",
              url,
              headers: { "x-api-key": key, authorization: `Bearer ${key}` },
              ...(operation.requestBody ? { payload: { wallets: [wallet] } } : {}),
            });
            calls++;
            const where = `${method.toUpperCase()} ${template} ${target.name}=${JSON.stringify(edge.slice(0, 20))}`;
            if (response.statusCode >= 500)
              failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
            const shape = shapeProblem(response);
            if (shape) failures.push(`${where} → ${response.statusCode}, ${shape}`);
            const refused = type === "integer" ? NOT_AN_INTEGER : type === "number" ? NOT_A_NUMBER : [];
            if (refused.includes(edge)) {
              const named =
                response.statusCode === 422 &&
                JSON.stringify(response.json().detail).includes(JSON.stringify(target.name));
              if (!named) failures.push(`${where} → ${response.statusCode}, expected a 422 naming ${target.name}`);
            }
          }
        }
      }
    }
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.requestBody) continue;
        const path = template.replace(/\{(\w+)\}/g, (_, name: string) => validValue({ name, in: "path" }));
        for (const edge of [...EDGE_VALUES, 1e308, -1, null, true, { nested: "\u0000" }]) {
          for (const payload of [{ wallets: [edge] }, { wallets: edge }, { wallets: [wallet], extra: edge }]) {
            const response = await w.app.inject({
              method: method.toUpperCase() as "POST",
              url: path,
              headers: { "x-api-key": key, authorization: `Bearer ${key}` },
              payload,
            });
            calls++;
            const where = `${method.toUpperCase()} ${template} body ${JSON.stringify(payload).slice(0, 60)}`;
            if (response.statusCode >= 500)
              failures.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
            const shape = shapeProblem(response);
            if (shape) failures.push(`${where} → ${response.statusCode}, ${shape}`);
          }
        }
      }
    }
    // A path that does not decode (a bare %) in every path parameter, and a raw non-ASCII byte, as sent on the wire.
    for (const [template, methods] of Object.entries(doc.paths)) {
      if (!template.includes("{")) continue;
      for (const method of Object.keys(methods)) {
        for (const raw of ["%", "%zz", "\xff"]) {
          const response = await w.app.inject({
            method: method.toUpperCase() as "GET",
            url: template.replace(/\{(\w+)\}/g, raw),
            headers: { "x-api-key": key },
          });
          calls++;
          const where = `${method.toUpperCase()} ${template} with a raw ${JSON.stringify(raw)}`;
          if (response.statusCode >= 500 || response.statusCode < 400)
            failures.push(`${where} → ${response.statusCode}, expected a 4xx`);
          const shape = shapeProblem(response);
          if (shape) failures.push(`${where} → ${response.statusCode}, ${shape}`);
        }
      }
    }
    expect(numberParameters).toBeGreaterThan(50);
    expect(calls).toBeGreaterThan(2_000);
    expect(failures).toEqual([]);
  }, 600_000);
});
