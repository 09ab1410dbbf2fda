/** Test support: a tiny HTTP server on 127.0.0.1 (port 0) answering from a handler, recording requests. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when there is none. */
  readonly body: unknown;
}

export type LoopbackReply =
  | { status?: number; body?: unknown; text?: string; headers?: Record<string, string> }
  /** Destroy the connection without answering (a network error for the client). */
  | "drop"
  /** Never answer (the client's timeout fires). */
  | "hang";

export type LoopbackHandler = (request: LoopbackRequest) => LoopbackReply | Promise<LoopbackReply>;

export interface Loopback {
  readonly url: string;
  readonly requests: LoopbackRequest[];
  close(): Promise<void>;
}

export async function startLoopback(handler: LoopbackHandler): Promise<Loopback> {
  const requests: LoopbackRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = Buffer.concat(chunks).toString("utf8");
      const request: LoopbackRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: raw === "" ? undefined : (JSON.parse(raw) as unknown),
      };
      requests.push(request);
      void Promise.resolve(handler(request)).then((reply) => {
        if (reply === "hang") return;
        if (reply === "drop") {
          req.socket.destroy();
          return;
        }
        const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
