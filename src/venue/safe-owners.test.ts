import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimVenue, type SimVenue } from "../sim/servers/index.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import { ChainClient } from "./chain/client.js";
import { CONTRACTS } from "./contracts.js";
import { VenueHttpClient } from "./http.js";
import { decodeAddressArray, safeSigner } from "./safe-owners.js";

const word = (hex: string) => hex.padStart(64, "0");

describe("decodeAddressArray", () => {
  it("reads an ABI-encoded address[] and refuses anything else", () => {
    const a = "11".repeat(20);
    const b = "ab".repeat(20);
    expect(decodeAddressArray(`0x${word("20")}${word("2")}${word(a)}${word(b)}`)).toEqual([`0x${a}`, `0x${b}`]);
    expect(decodeAddressArray(`0x${word("20")}${word("0")}`)).toEqual([]);
    expect(decodeAddressArray("0x")).toBeNull();
    // A length past the data, and a word that is not an address.
    expect(decodeAddressArray(`0x${word("20")}${word("3")}${word(a)}`)).toBeNull();
    expect(decodeAddressArray(`0x${word("20")}${word("1")}${"f".repeat(64)}`)).toBeNull();
  });
});

describe("safeSigner against the simulated node", () => {
  let venue: SimVenue;
  let chain: ChainClient;
  beforeAll(async () => {
    venue = await startSimVenue({ world: smallWorld(3) });
    chain = new ChainClient(new VenueHttpClient({ name: "rpc", baseUrl: venue.urls.rpc, timeoutMs: 5_000 }));
  });
  afterAll(() => venue.close());

  it("names each proxy's signer, and nobody for an address without code or a contract that is not a Safe", async () => {
    for (const wallet of venue.world.wallets.slice(0, 5)) {
      expect(await safeSigner(chain, wallet.proxyWallet)).toBe(wallet.signer.toLowerCase());
    }
    expect(await safeSigner(chain, `0x${"7".repeat(40)}`)).toBeNull();
    expect(await safeSigner(chain, CONTRACTS.negRiskAdapter)).toBeNull();
  });
});
