import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.js";
import { createVenueClients } from "./index.js";

describe("createVenueClients", () => {
  it("points every client at the real venue by default and leaves the chain out without an RPC URL", () => {
    const clients = createVenueClients(loadConfig({}));
    expect(clients.gamma.http.baseUrl).toBe("https://gamma-api.polymarket.com");
    expect(clients.dataApi.http.baseUrl).toBe("https://data-api.polymarket.com");
    expect(clients.pnl.http.baseUrl).toBe("https://user-pnl-api.polymarket.com");
    expect(clients.arcgis.http.baseUrl).toBe("https://services5.arcgis.com/SaBe5HMtmnbqSWlu/arcgis/rest/services");
    expect(clients.rtds.status).toBe("idle");
    expect(clients.chain).toBeNull();
  });

  it("follows the configured URLs (the simulated venue on loopback)", () => {
    const config = loadConfig({
      VENUE_GAMMA_URL: "http://127.0.0.1:7001",
      VENUE_DATA_API_URL: "http://127.0.0.1:7002",
      VENUE_RPC_URL: "http://127.0.0.1:7003",
    });
    const clients = createVenueClients(config);
    expect(clients.gamma.http.baseUrl).toBe("http://127.0.0.1:7001");
    expect(clients.dataApi.http.baseUrl).toBe("http://127.0.0.1:7002");
    expect(clients.chain?.http.baseUrl).toBe("http://127.0.0.1:7003");
  });
});
