/**
 * The web dashboard (web/, built by `npm install` into web/dist): its files served under `/` by the API's own
 * process. The files are read once at start-up and kept in memory with their gzip form (a few hundred KiB). Hashed
 * assets (`/assets/*`) are cached for a year; the page itself is revalidated on every load (ETag), so a new build
 * shows at the next reload. Every API path is registered by its own plugin and stays first: the dashboard owns `/`,
 * `/assets/*` and the few other top-level files of its build, and is left out of the OpenAPI document.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { extname, join, relative, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { acceptsGzip } from "../../../kept/send-serialized.js";
import { packagePath } from "../../../package.js";

/** The package's own build folder, used when WEB_DIR is empty. */
export const BUILT_WEB_DIR = packagePath("web", "dist");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json", ".txt"]);
const IMMUTABLE = "public, max-age=31536000, immutable";

interface WebFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  cacheControl: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file of the build by its URL path (`/index.html`, `/assets/index-3f2a.js`). */
export function loadWebFiles(dir: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  for (const path of filesUnder(dir)) {
    const urlPath = `/${relative(dir, path).split(sep).join("/")}`;
    const body = readFileSync(path);
    const ext = extname(path).toLowerCase();
    const gzip = COMPRESSIBLE.has(ext) && body.length >= 1_024 ? gzipSync(body, { level: 9 }) : null;
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    const cacheControl = urlPath.startsWith("/assets/") ? IMMUTABLE : "no-cache";
    files.set(urlPath, { body, gzip, type: TYPES[ext] ?? "application/octet-stream", etag, cacheControl });
  }
  return files;
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: WebFile): FastifyReply {
  reply
    .header("etag", file.etag)
    .header("cache-control", file.cacheControl)
    .header("x-content-type-options", "nosniff");
  if (file.gzip) reply.header("vary", "accept-encoding");
  if (request.headers["if-none-match"] === file.etag) return reply.code(304).send();
  reply.type(file.type);
  if (file.gzip && acceptsGzip(request.headers["accept-encoding"]))
    return reply.header("content-encoding", "gzip").send(file.gzip);
  return reply.send(file.body);
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Pelagic</title>
<p>The dashboard is not built. Run <code>npm install</code> (or <code>npm run build:web</code>) and restart Pelagic.
The API is served under <a href="/api/openapi.json">/api</a>.</p></html>`;

export const webRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const dir = resolve(ctx.config.server.webDir || BUILT_WEB_DIR);
  const files = existsSync(join(dir, "index.html")) ? loadWebFiles(dir) : new Map<string, WebFile>();
  const route = { config: { access: access.public }, schema: { hide: true } };
  const index = files.get("/index.html");

  app.get("/", route, async (request, reply) => {
    if (!index)
      return reply.code(503).type("text/html; charset=utf-8").header("cache-control", "no-store").send(NOT_BUILT);
    return sendFile(request, reply, index);
  });
  app.get("/assets/*", route, async (request, reply) => {
    const file = files.get(request.url.split("?")[0]!);
    if (!file) return reply.code(404).send({ detail: "Not Found" });
    return sendFile(request, reply, file);
  });
  // The build's other top-level files (the icon, robots.txt): each its own path, so nothing else under / is taken.
  for (const [path, file] of files) {
    if (path === "/index.html" || path.startsWith("/assets/") || path.slice(1).includes("/")) continue;
    app.get(path, route, async (request, reply) => sendFile(request, reply, file));
  }
};
