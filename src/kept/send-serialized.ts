/**
 * Sending answers kept serialized (leaderboards, market pages, proxy-view overviews): as they are, or their gzip
 * form when the client accepts gzip and the answer is large enough (GZIP_MIN_BYTES). Browsers, curl --compressed
 * and most HTTP libraries ask for it; a 50-row leaderboard shrinks about fivefold.
 */
import type { FastifyReply } from "fastify";
import type { SerializedBody } from "./serialized-body.js";
import { closeGzip } from "./gzip-tail.js";

/** The last Accept-Encoding header read and its answer: clients send the same one request after request. */
let lastHeader = "";
let lastAccepts = false;

/** Whether an Accept-Encoding header admits gzip: `gzip`, `x-gzip` or `*`, unless given q=0. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(",") : header;
  if (!text) return false;
  if (text === lastHeader) return lastAccepts;
  lastAccepts = parseAcceptsGzip(text);
  lastHeader = text;
  return lastAccepts;
}

function parseAcceptsGzip(text: string): boolean {
  let gzip: boolean | undefined;
  let any = false;
  for (const part of text.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    const allowed = !q || Number(q[1]) > 0;
    if (name.trim() === "gzip" || name.trim() === "x-gzip") gzip = allowed;
    else if (name.trim() === "*") any = allowed;
  }
  return gzip ?? any;
}

/**
 * Sends an answer serialized earlier (by the route's own serializer), compressed when the client accepts it, with
 * the ETag it keeps (src/api/etag.ts answers If-None-Match). With a `tail`, the kept body is the head of an answer
 * that this request ends (a search's `_elapsed_ms`): its ETag is the head's, weak, as the tails differ.
 */
export function sendSerialized(reply: FastifyReply, body: SerializedBody, tail?: string): FastifyReply {
  reply.type("application/json; charset=utf-8");
  const gzip = body.compressible && acceptsGzip(reply.request.headers["accept-encoding"]);
  if (body.compressible) reply.header("vary", "accept-encoding");
  if (gzip) reply.header("content-encoding", "gzip");
  if (tail !== undefined) {
    const tailBytes = Buffer.from(tail);
    reply.header("etag", `W/${gzip ? body.gzipEtag : body.etag}`);
    return reply.send(gzip ? closeGzip(body.openGzip(), tailBytes) : Buffer.concat([body.json, tailBytes]));
  }
  if (!gzip) return reply.header("etag", body.etag).send(body.json);
  return reply.header("etag", body.gzipEtag).send(body.gzip());
}
