/**
 * ETag and If-None-Match for every GET answer, in one place: an onSend hook gives each 200 answer with a body a
 * strong ETag (the hash of the bytes it sends), and answers 304 without a body when the request's If-None-Match
 * names it. Answers kept serialized (`SerializedBody`) bring the ETag they computed once, when they were kept; the
 * hook hashes only the answers built for one request. The gzip form of an answer is another representation, so it
 * has its own ETag (the JSON's, marked `-gz`): a cache never swaps one for the other.
 */
import type { FastifyInstance } from "fastify";
import { strongEtag } from "../kept/serialized-body.js";

/**
 * Whether If-None-Match names `etag` (RFC 9110 13.1.2: `*`, or a list compared weakly, `W/` prefixes ignored).
 * Entity tags hold no commas, so the list splits on them.
 */
export function noneMatchHolds(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const ours = opaque(etag);
  for (const part of (Array.isArray(header) ? header.join(",") : header).split(",")) {
    const tag = part.trim();
    if (tag === "*" || opaque(tag) === ours) return true;
  }
  return false;
}

const opaque = (tag: string): string => (tag.startsWith("W/") ? tag.slice(2) : tag);

export function registerEtags(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (
      (request.method !== "GET" && request.method !== "HEAD") ||
      reply.statusCode !== 200 ||
      (typeof payload !== "string" && !Buffer.isBuffer(payload))
    ) {
      return done(null, payload);
    }
    let etag = reply.getHeader("etag");
    if (typeof etag !== "string") {
      etag = strongEtag(payload);
      reply.header("etag", etag);
    }
    // HEAD carries the ETag but keeps its 200: Fastify's HEAD routes expect a payload to measure after this hook.
    if (request.method === "HEAD" || !noneMatchHolds(request.headers["if-none-match"], etag))
      return done(null, payload);
    // 304: the same headers but the body's own (RFC 9110 15.4.5 keeps ETag and Vary).
    reply.code(304);
    reply.removeHeader("content-type");
    reply.removeHeader("content-length");
    reply.removeHeader("content-encoding");
    done(null, null);
  });
}
