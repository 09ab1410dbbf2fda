/**
 * One delivery attempt: a POST to the registered URL over a connection whose address was checked (ssrf.ts), on a
 * fresh socket (no pooled connection skips the check), without following redirects, and given up after the
 * timeout. The answer's status and Retry-After are all that is read, and the first KiB of a 429's body (chat
 * platforms say there how long to wait); any other body is discarded.
 */
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { parseRetryAfter } from "../../venue/http.js";
import { addressProblem, checkedAddress, hostOf, pinnedLookup, RefusedTarget, type TargetPolicy } from "./ssrf.js";

export interface AttemptAnswer {
  readonly status: number;
  readonly retryAfter: string | null;
  /** A 429's body, its first KiB; null for every other answer. */
  readonly tooManyBody?: string | null;
}

const TOO_MANY_BODY_BYTES = 1_024;

const USER_AGENT = "Pelagic-Webhooks/1";

export async function postWebhook(
  url: URL,
  body: string,
  headers: Readonly<Record<string, string>>,
  policy: TargetPolicy,
  timeoutMs: number,
): Promise<AttemptAnswer> {
  const host = hostOf(url);
  if (isIP(host)) await checkedAddress(host, policy);
  return new Promise<AttemptAnswer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        agent: false,
        lookup: pinnedLookup(policy) as unknown as http.RequestOptions["lookup"],
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": USER_AGENT },
      },
      (response) => {
        clearTimeout(timer);
        const header = response.headers["retry-after"];
        const retryAfter = typeof header === "string" ? header : null;
        const status = response.statusCode ?? 0;
        if (status !== 429) {
          response.resume();
          resolve({ status, retryAfter });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (size < TOO_MANY_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        const done = () =>
          resolve({
            status,
            retryAfter,
            tooManyBody: Buffer.concat(chunks).subarray(0, TOO_MANY_BODY_BYTES).toString("utf8"),
          });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    // The address actually connected to, checked once more: nothing but the pinned lookup should ever reach it.
    const verify = (socket: Socket) => {
      const remote = socket.remoteAddress;
      const problem = remote ? addressProblem(remote, policy.allowLoopback) : null;
      if (problem) request.destroy(new RefusedTarget(`connected to a ${problem} address`));
    };
    request.on("socket", (socket: Socket) => socket.once("connect", () => verify(socket)));
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}

/** A Retry-After asking for longer than a day is held to a day. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** An attempt that neither succeeded nor found its receiver gone: what is recorded, and the Retry-After it asked for. */
export interface FailedAttempt {
  kind: "failed";
  status: number | null;
  error: string;
  retryAfterSeconds: number | null;
}

/** A receiver's answer that is neither a success nor gone, as a FailedAttempt. */
export function failedAttempt(answer: AttemptAnswer, nowMs: number): FailedAttempt {
  const retryAfterMs = parseRetryAfter(answer.retryAfter, nowMs);
  const error =
    answer.status >= 300 && answer.status < 400
      ? `HTTP ${answer.status} (redirects are not followed)`
      : `HTTP ${answer.status}`;
  return {
    kind: "failed",
    status: answer.status,
    error,
    retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
  };
}

/**
 * Seconds before the attempt after `attempts` failed ones: the schedule's step with up to 10% jitter, never before
 * a Retry-After (held to a day).
 */
export function retryWaitSeconds(
  schedule: readonly number[],
  attempts: number,
  retryAfterSeconds: number | null,
  random: () => number,
): number {
  const wait = Math.ceil((schedule[attempts] ?? 0) * (1 + 0.1 * random()));
  return retryAfterSeconds === null ? wait : Math.max(wait, Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS));
}
