/**
 * A venue that cannot be reached does not look like a quiet market: health names the cause (connection refused) and
 * what to do about it within 30 s of the start, and every answer meanwhile carries `X-Pelagic-Ready: false`, so an
 * empty list reads as "not synced yet". The causes of the other failures (DNS, time-out) are worded from real
 * errors of Node's fetch.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorClass, errorHint } from "../src/api/routes/service/health.js";
import { VenueHttpClient, VenueUnavailableError, networkCauseOf } from "../src/venue/http.js";
import { openUnreachableVenueService, type UnreachableVenueService } from "./support/unreachable-venue.js";

interface HealthSource {
  source: string;
  first_sync_done: boolean;
  last_error_class: string | null;
  last_error_hint: string | null;
}

describe("a service whose venue refuses every connection", () => {
  let offline: UnreachableVenueService;
  beforeAll(async () => {
    offline = await openUnreachableVenueService();
  }, 60_000);
  afterAll(async () => offline?.close());

  it("names the cause and a hint in health within 30 s, and marks every answer not ready", async () => {
    const started = Date.now();
    let gamma: HealthSource | undefined;
    while (Date.now() - started < 30_000) {
      const health = (await (await fetch(`${offline.url}/api/v1/health`)).json()) as {
        ready: boolean;
        sources: HealthSource[];
      };
      expect(health.ready).toBe(false);
      gamma = health.sources.find((s) => s.source === "gamma-markets" && s.last_error_class !== null);
      if (gamma) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(gamma).toMatchObject({ first_sync_done: false, last_error_class: "refused" });
    expect(gamma!.last_error_hint).toContain("npm run demo");
    const list = await fetch(`${offline.url}/api/v2/whales/leaderboard`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-pelagic-ready")).toBe("false");
  }, 45_000);
});

describe("the cause of a venue request that got no answer", () => {
  let silent: Server;
  let silentPort: number;
  const held: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer((socket) => {
      // The client's time-out resets the connection: an error here is expected, and must not end the run.
      socket.on("error", () => undefined);
      held.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  const failureOf = async (baseUrl: string, timeoutMs = 2_000): Promise<VenueUnavailableError> => {
    const client = new VenueHttpClient({ name: "gamma", baseUrl, timeoutMs, maxAttempts: 1 });
    const error = await client.get("/events").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueUnavailableError);
    return error as VenueUnavailableError;
  };

  it("a host name that does not resolve: DNS, with the host", async () => {
    const error = await failureOf("http://pelagic-venue.invalid");
    expect(networkCauseOf(error.cause)).toMatch(/^DNS lookup failed \((ENOTFOUND|EAI_AGAIN) pelagic-venue\.invalid\)$/);
    expect(errorClass(error.message)).toBe("dns");
    expect(errorHint(error.message)).toContain("does not resolve");
  });

  it("a server that never answers: a time-out, naming the setting", async () => {
    const error = await failureOf(`http://127.0.0.1:${silentPort}`, 300);
    expect(error.message).toContain("(last: timed out (no answer within VENUE_TIMEOUT_MS))");
    expect(errorClass(error.message)).toBe("timeout");
  });

  it("an HTTP status keeps its own wording", async () => {
    const http = createHttpServer((_request, response) => response.writeHead(503, { connection: "close" }).end());
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const error = await failureOf(`http://127.0.0.1:${(http.address() as { port: number }).port}`);
      expect(error.message).toMatch(/unavailable after 1 attempt\(s\) \(last HTTP 503\)$/);
      expect(errorHint(error.message)).toBeNull();
    } finally {
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
