/**
 * Error bodies of the contract. Validation errors are HTTPValidationError (422), everything else is
 * `{"detail": "..."}`; a 5xx never leaks internals.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ReadError } from "../analytics/reads/read-errors.js";
import type { Config } from "../config/index.js";
import { PelagicError, type ErrorCode } from "../errors/index.js";

/** Throw from a handler to answer with a status and a `detail`. */
export class HttpError extends PelagicError {
  constructor(
    readonly statusCode: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super("HTTP_ERROR", typeof detail === "string" ? detail : `HTTP ${statusCode}`);
  }
}

export const notFound = (detail = "Not Found") => new HttpError(404, detail);

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Builds a 422 for a check that a schema cannot express (e.g. `after` must be below `before`). */
export function validationError(loc: Array<string | number>, msg: string, type = "value_error"): HttpError {
  return new HttpError(422, [{ loc, msg, type }] satisfies ValidationIssue[]);
}

export const ErrorBody = Type.Object(
  { detail: Type.String({ description: "What went wrong" }) },
  { $id: "ErrorBody", description: "Error with a human-readable detail" },
);

export const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
          description: 'Where: ["query", name], ["path", name] or ["body", ...]',
        }),
        msg: Type.String(),
        type: Type.String({
          description: "Machine-readable error kind, e.g. missing, extra_forbidden, int_parsing, less_than_equal",
        }),
      }),
    ),
  },
  { $id: "HTTPValidationError", description: "Validation error: invalid or unknown parameters" },
);

const LOCATIONS: Record<string, string> = { querystring: "query", params: "path", body: "body", headers: "header" };

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function issueFromAjv(location: string, error: AjvIssue): ValidationIssue {
  const path: Array<string | number> = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  const p = error.params;
  switch (error.keyword) {
    case "required":
      return { loc: [location, ...path, String(p.missingProperty)], msg: "Field required", type: "missing" };
    case "additionalProperties":
      return {
        loc: [location, ...path, String(p.additionalProperty)],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
      };
    case "type": {
      const kind = String(p.type);
      const names: Record<string, [string, string]> = {
        integer: ["a valid integer", "int_parsing"],
        number: ["a valid number", "float_parsing"],
        boolean: ["a valid boolean", "bool_parsing"],
        string: ["a valid string", "string_type"],
        array: ["a valid list", "list_type"],
        object: ["a valid object", "model_type"],
      };
      const [what, type] = names[kind] ?? [`of type ${kind}`, "type_error"];
      return { loc: [location, ...path], msg: `Input should be ${what}`, type };
    }
    case "maximum":
      return {
        loc: [location, ...path],
        msg: `Input should be less than or equal to ${p.limit}`,
        type: "less_than_equal",
      };
    case "minimum":
      return {
        loc: [location, ...path],
        msg: `Input should be greater than or equal to ${p.limit}`,
        type: "greater_than_equal",
      };
    case "exclusiveMaximum":
      return { loc: [location, ...path], msg: `Input should be less than ${p.limit}`, type: "less_than" };
    case "exclusiveMinimum":
      return { loc: [location, ...path], msg: `Input should be greater than ${p.limit}`, type: "greater_than" };
    case "maxLength":
      return {
        loc: [location, ...path],
        msg: `String should have at most ${p.limit} characters`,
        type: "string_too_long",
      };
    case "minLength":
      return {
        loc: [location, ...path],
        msg: `String should have at least ${p.limit} characters`,
        type: "string_too_short",
      };
    case "maxItems":
      return { loc: [location, ...path], msg: `List should have at most ${p.limit} items`, type: "too_long" };
    case "minItems":
      return { loc: [location, ...path], msg: `List should have at least ${p.limit} items`, type: "too_short" };
    case "pattern":
      return {
        loc: [location, ...path],
        msg: `String should match pattern '${p.pattern}'`,
        type: "string_pattern_mismatch",
      };
    case "enum":
    case "const":
    case "anyOf": {
      const allowed =
        (p.allowedValues as unknown[] | undefined) ?? (p.allowedValue !== undefined ? [p.allowedValue] : undefined);
      const msg = allowed
        ? `Input should be ${allowed.map((v) => `'${String(v)}'`).join(", ")}`
        : "Input is not one of the allowed values";
      return { loc: [location, ...path], msg, type: "enum" };
    }
    default:
      return { loc: [location, ...path], msg: error.message ?? "Invalid input", type: "value_error" };
  }
}

/** One issue per field: ajv reports every branch of an anyOf, which says nothing more to a caller. */
function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = JSON.stringify(issue.loc);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const retryAfter = (error: PelagicError): Record<string, string> =>
  error instanceof ReadError && error.retryAfterSeconds !== undefined
    ? { "Retry-After": String(error.retryAfterSeconds) }
    : {};

/**
 * The answer of each code that can reach a request (docs/ERRORS.md lists them with their status); a PelagicError of
 * any other code is a fault of ours, a 500. HttpError carries its own.
 */
const HTTP_ANSWERS: Partial<Record<ErrorCode, (error: PelagicError) => HttpError>> = {
  READ_NOT_FOUND: (error) => new HttpError(404, error.message),
  READ_UPSTREAM_UNAVAILABLE: (error) => new HttpError(502, error.message),
  READ_RATE_LIMITED: (error) => new HttpError(429, error.message, retryAfter(error)),
  READ_TIMED_OUT: (error) => new HttpError(503, error.message, retryAfter(error)),
  WEBHOOK_CITIES_UNKNOWN: (error) => validationError(["body", "cities"], error.message),
  WEBHOOK_TARGET_REFUSED: (error) => validationError(["body", "url"], `URL refused: ${error.message}`, "url_refused"),
  WEBHOOK_ENDPOINT_LIMIT: (error) => validationError(["body", "url"], error.message, "too_many_webhooks"),
  ALERT_INVALID: (error) => validationError(locOf(error, ["body"]), error.message, "alert_invalid"),
  ALERT_LIMIT: (error) => validationError(locOf(error, ["body"]), error.message, "too_many_alerts"),
};

/** Where a refusal of the alerts' rules is about (its `loc`), else `fallback`. */
function locOf(error: PelagicError, fallback: Array<string | number>): Array<string | number> {
  const loc = (error as PelagicError & { loc?: readonly (string | number)[] }).loc;
  return loc ? [...loc] : fallback;
}

/** Each code's HTTP status, for the docs and their test. */
export const HTTP_STATUS_OF_CODE: Partial<Record<ErrorCode, number>> = Object.fromEntries(
  Object.entries(HTTP_ANSWERS).map(([code, answer]) => [
    code,
    answer(new PelagicError(code as ErrorCode, "")).statusCode,
  ]),
);

/**
 * A 422's issues, at most `listed` of them: a last entry counts the rest, at the location of the first left out
 * (a thousand unknown parameters would otherwise make an answer a thousand times the request's size).
 */
export function listedIssues(issues: readonly ValidationIssue[], listed: number): ValidationIssue[] {
  if (issues.length <= listed) return [...issues];
  const rest = issues.length - listed;
  return [
    ...issues.slice(0, listed),
    {
      loc: issues[listed]!.loc.slice(0, 1),
      msg: `${rest} more error${rest === 1 ? "" : "s"} not listed`,
      type: "too_many_errors",
    },
  ];
}

export function registerErrorHandling(
  app: FastifyInstance,
  server: Pick<Config["server"], "validationErrorsListed">,
): void {
  const invalid = (issues: readonly ValidationIssue[]) => ({
    detail: listedIssues(issues, server.validationErrorsListed),
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: "Not Found" });
  });

  app.setErrorHandler((thrown: FastifyError | PelagicError, request, reply) => {
    // A fault of ours (a code with no HTTP answer among them): logged, never shown.
    const internalError = (error: Error, status = 500) => {
      request.log.error({ err: error }, "request failed");
      return reply.code(status).send({ detail: "Internal Server Error" });
    };
    const answer = thrown instanceof PelagicError ? HTTP_ANSWERS[thrown.code] : undefined;
    const error = answer ? answer(thrown as PelagicError) : thrown;
    if (error instanceof HttpError) {
      const body =
        error.statusCode === 422 && Array.isArray(error.detail)
          ? invalid(error.detail as ValidationIssue[])
          : { detail: error.detail };
      return reply.code(error.statusCode).headers(error.headers).send(body);
    }
    if (error instanceof PelagicError) return internalError(error);
    if (error.validation) {
      const location = LOCATIONS[error.validationContext ?? ""] ?? "query";
      return reply
        .code(422)
        .send(invalid(dedupe(error.validation.map((issue) => issueFromAjv(location, issue as AjvIssue)))));
    }
    if (
      error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
      error.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
      error instanceof SyntaxError
    ) {
      return reply.code(422).send({ detail: [{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }] });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    return internalError(error, status >= 500 && status < 600 ? status : 500);
  });
}
