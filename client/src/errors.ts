/** Every answer the service refuses, as one error: the status, the contract's `detail`, and Retry-After. */

/** One issue of a 422 (the HTTPValidationError body: FastAPI's shape). */
export interface ValidationIssue {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly type: string;
}

export class PelagicApiError extends Error {
  override readonly name = "PelagicApiError";

  constructor(
    /** The HTTP status (401, 403, 404, 422, 429, 502, 503, ...). */
    readonly status: number,
    /** The contract's `detail`, as words (a 422's issues joined). */
    readonly detail: string,
    /** The body as the service sent it (JSON when it was). */
    readonly body: unknown,
    /** Retry-After in seconds, when the answer carried it (429, 503, 202). */
    readonly retryAfterSeconds: number | undefined,
    readonly url: string,
  ) {
    super(`${status} ${detail} (${url})`);
  }

  /** A 422's issues, each with where (`["query", "limit"]`) and what. */
  get issues(): readonly ValidationIssue[] {
    const detail = (this.body as { detail?: unknown } | null)?.detail;
    return Array.isArray(detail) ? (detail as ValidationIssue[]) : [];
  }

  /** The error of a refused answer whose body has been read (JSON, or its text). */
  static of(response: Response, body: unknown): PelagicApiError {
    return new PelagicApiError(
      response.status,
      errorDetail(body) ?? `${response.status} ${response.statusText}`.trim(),
      body,
      retryAfterSeconds(response.headers),
      response.url,
    );
  }

  /** Reads a refused answer's body and makes its error. */
  static async from(response: Response): Promise<PelagicApiError> {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: the text is the body */
    }
    return PelagicApiError.of(response, body);
  }
}

/** The words of an error body: `detail` (a string, or a 422's issues), or a contract-address body's `error`. */
export function errorDetail(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  const { detail, error } = (body ?? {}) as { detail?: unknown; error?: unknown };
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail))
    return (detail as ValidationIssue[]).map((issue) => `${(issue.loc ?? []).join(".")}: ${issue.msg}`).join("; ");
  if (typeof error === "string") return error;
  return undefined;
}

/** Retry-After as seconds: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
