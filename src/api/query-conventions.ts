/**
 * Query-string and path conventions applied to every route in one place:
 * - unknown query parameters are a 422 (every querystring schema is closed; a route without one accepts none);
 * - boolean parameters also accept 1/0 and yes/no, as the contract's `include_pending=1` does;
 * - numbers are written in decimal and are finite: `Infinity`, `1e309`, `0x10` or a blank are a 422 naming the
 *   parameter, and an integer is whole digits within ±(2^53 - 1), the range a JSON number holds exactly (a
 *   larger one would be rounded, and neither store's integer columns could take it);
 * - no text holds a NUL character (PostgreSQL's text cannot, so it would fail a query instead of the request).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { HttpError, type ValidationIssue } from "./errors.js";

const TRUE = new Set(["1", "yes", "on"]);
const FALSE = new Set(["0", "no", "off"]);
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const WHOLE = /^[+-]?\d+$/;

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
}

interface ObjectSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  additionalProperties?: boolean;
}

type Kind = "boolean" | "integer" | "number";

/** The scalar kind a property takes (a union of integers is an integer; with any number in it, a number). */
function kindOf(prop: PropertySchema): Kind | undefined {
  const named = Array.isArray(prop.type) ? prop.type : prop.type ? [prop.type] : [];
  const types = prop.anyOf ? prop.anyOf.map(kindOf) : named;
  const kinds = new Set(types.filter((t): t is Kind => t === "boolean" || t === "integer" || t === "number"));
  if (kinds.has("number")) return "number";
  if (kinds.has("integer")) return "integer";
  return kinds.has("boolean") ? "boolean" : undefined;
}

function kindsOf(schema: ObjectSchema | undefined): Array<[string, Kind]> {
  return Object.entries(schema?.properties ?? {}).flatMap(([key, prop]) => {
    const kind = kindOf(prop);
    return kind ? [[key, kind] as [string, Kind]] : [];
  });
}

/** Why `text` is not a number of this kind, or null when it is one. */
export function numberProblem(text: string, kind: "integer" | "number"): Omit<ValidationIssue, "loc"> | null {
  if (kind === "integer") {
    if (!WHOLE.test(text)) return { msg: "Input should be a valid integer", type: "int_parsing" };
    if (!Number.isSafeInteger(Number(text)))
      return {
        msg: `Input should be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
        type: "int_range",
      };
    return null;
  }
  if (!DECIMAL.test(text)) return { msg: "Input should be a valid number", type: "float_parsing" };
  if (!Number.isFinite(Number(text))) return { msg: "Input should be a finite number", type: "finite_number" };
  return null;
}

/** Normalizes booleans and refuses malformed numbers of one part of the request (query or path). */
function checkPart(
  values: Record<string, unknown>,
  kinds: Array<[string, Kind]>,
  location: "query" | "path",
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [key, kind] of kinds) {
    const value = values[key];
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== "string") continue;
      if (kind === "boolean") {
        if (Array.isArray(value)) continue;
        const lower = text.toLowerCase();
        if (TRUE.has(lower)) values[key] = "true";
        else if (FALSE.has(lower)) values[key] = "false";
        continue;
      }
      const problem = numberProblem(text, kind);
      if (problem) issues.push({ loc: [location, key], ...problem });
    }
  }
  return issues;
}

/** Whether a value holds text with a NUL character anywhere (the common answer, no, without allocating). */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (value === null || typeof value !== "object") return false;
  for (const key in value) if (holdsNul((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** Where a value (query, path or a parsed JSON body, walked whole) holds text with a NUL character. */
function nulCharacters(value: unknown, loc: Array<string | number>): ValidationIssue[] {
  if (!holdsNul(value)) return [];
  if (typeof value === "string")
    return value.includes("\u0000") ? [{ loc, msg: "Text should not contain NUL characters", type: "string_nul" }] : [];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) =>
    nulCharacters(item, [...loc, Array.isArray(value) ? Number(key) : key]),
  );
}

export function applyQueryConventions(app: FastifyInstance): void {
  app.addHook("onRoute", (route: RouteOptions) => {
    const schema = (route.schema ??= {});
    const query = (schema.querystring ?? { type: "object", properties: {} }) as ObjectSchema;
    query.additionalProperties = false;
    schema.querystring = query;

    const queryKinds = kindsOf(query);
    const pathKinds = kindsOf(schema.params as ObjectSchema | undefined).filter(([, kind]) => kind !== "boolean");
    // A callback hook: an async one costs a promise and a turn of the microtask queue on every request.
    const normalize = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const issues = [
        ...checkPart(request.query as Record<string, unknown>, queryKinds, "query"),
        ...checkPart(request.params as Record<string, unknown>, pathKinds, "path"),
        ...nulCharacters(request.query, ["query"]),
        ...nulCharacters(request.params, ["path"]),
        ...nulCharacters(request.body, ["body"]),
      ];
      done(issues.length > 0 ? new HttpError(422, issues) : undefined);
    };
    const existing = route.preValidation;
    route.preValidation = existing ? [normalize, ...(Array.isArray(existing) ? existing : [existing])] : [normalize];
  });
}
