/**
 * One delivery attempt: a POST to the registered URL over a connection whose address was checked (ssrf.ts), on a
 * fresh socket (no pooled connection skips the check), without following redirects, and given up after the
 * timeout. The answer's status and Retry-After are all that is read; its body is discarded.
 */
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import { addressProblem, checkedAddress, hostOf, pinnedLookup, RefusedTarget, type TargetPolicy } from "./ssrf.js";

export interface AttemptAnswer {
  readonly status: number;
  readonly retryAfter: string | null;
}

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
        response.resume();
        const retryAfter = response.headers["retry-after"];
        resolve({ status: response.statusCode ?? 0, retryAfter: typeof retryAfter === "string" ? retryAfter : null });
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
