import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLoop } from "./open-loop.js";

/** Answers /big with 300 KB written in pieces (several socket reads per answer), /missing with a 404, /closing with a
 * 410 and closes the connection. */
let server: Server;
let base: string;
const served: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    served.push(request.url ?? "");
    if (request.url === "/missing") return void response.writeHead(404, { "content-length": "2" }).end("no");
    if (request.url === "/closing")
      return void response.writeHead(410, { "content-length": "4", connection: "close" }).end("gone");
    const piece = Buffer.alloc(30_000, "x");
    response.writeHead(200, { "content-length": String(piece.length * 10) });
    let sent = 0;
    const more = () => {
      response.write(piece);
      if (++sent < 10) setImmediate(more);
      else response.end();
    };
    more();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("openLoop", () => {
  it("sends rate × seconds requests over the paths in turn, each answered whole before the socket is reused", async () => {
    served.length = 0;
    const figures = await openLoop(base, { rate: 200, seconds: 0.5, paths: ["/big", "/big", "/missing"] });
    expect(served).toHaveLength(100);
    expect(served.filter((path) => path === "/missing")).toHaveLength(33);
    expect(figures.non2xx).toBe(33);
    expect(figures.p50).toBeGreaterThan(0);
    expect(figures.p50).toBeLessThanOrEqual(figures.p99);
    expect(figures.p99).toBeLessThanOrEqual(figures.max);
  });

  it("opens a new connection where the server closed the last one", async () => {
    served.length = 0;
    // /closing answers and closes its connection, as a server does with a keep-alive socket idle past its timeout.
    const figures = await openLoop(base, { rate: 20, seconds: 0.5, paths: ["/closing"] });
    expect(served).toHaveLength(10);
    expect(figures.non2xx).toBe(10);
  });
});
