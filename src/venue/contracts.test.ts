import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/index.js";
import { decodeLog } from "./chain/decoder.js";
import { encodeVenueLog } from "./chain/abi.js";
import {
  BUILT_IN_CONTRACTS,
  CONTRACTS,
  exchangeContractType,
  exchangeVersion,
  isCollateralAdapter,
  isProtocolAddress,
  useExtraExchanges,
  venueContracts,
} from "./contracts.js";

const PROTOCOL = BUILT_IN_CONTRACTS.map((c) => c.address);
const NEW_EXCHANGE = "0xe4444400000000000000000000000000000000aa";

afterEach(() => useExtraExchanges([]));

describe("the contracts table", () => {
  it("holds every exchange generation, the adapters and the protocol's other contracts, each address once", () => {
    expect(new Set(PROTOCOL).size).toBe(PROTOCOL.length);
    expect(exchangeVersion(CONTRACTS.exchangeV3)).toBe("v2");
    expect(exchangeVersion(CONTRACTS.ctfExchangeV1)).toBe("v1");
    for (const adapter of [
      CONTRACTS.ctfCollateralAdapter,
      CONTRACTS.negRiskCtfCollateralAdapter,
      CONTRACTS.ctfCollateralAdapter2,
      CONTRACTS.negRiskCtfCollateralAdapter2,
    ])
      expect(isCollateralAdapter(adapter) && isProtocolAddress(adapter), adapter).toBe(true);
    // The contract-address body names the four exchanges the contract lists, and no other.
    expect(BUILT_IN_CONTRACTS.filter((c) => c.contractType).map((c) => exchangeContractType(c.address))).toEqual([
      "CTF Exchange V1",
      "NegRisk CTF V1",
      "CTF Exchange V2",
      "NegRisk CTF V2",
    ]);
  });

  it("adds an exchange through VENUE_EXTRA_EXCHANGES: one line, and its fills decode with the layout it names", () => {
    const config = loadConfig({ VENUE_EXTRA_EXCHANGES: ` ${NEW_EXCHANGE.toUpperCase().replace("0X", "0x")}:v2 ` });
    expect(config.venue.extraExchanges).toEqual([{ address: NEW_EXCHANGE, layout: "v2" }]);
    const fill = {
      kind: "OrderFilledV2" as const,
      version: "v2" as const,
      address: NEW_EXCHANGE as `0x${string}`,
      orderHash: `0x${"11".repeat(32)}` as `0x${string}`,
      maker: `0x${"22".repeat(20)}` as `0x${string}`,
      taker: `0x${"33".repeat(20)}` as `0x${string}`,
      side: 0,
      tokenId: 7n,
      makerAmountFilled: 5n,
      takerAmountFilled: 10n,
      fee: 0n,
      builder: `0x${"0".repeat(64)}` as `0x${string}`,
      metadata: `0x${"0".repeat(64)}` as `0x${string}`,
    };
    const log = { ...encodeVenueLog(fill), blockNumber: 1, transactionHash: `0x${"44".repeat(32)}`, logIndex: 0 };
    expect(decodeLog(log)).toBeNull();
    expect(isProtocolAddress(NEW_EXCHANGE)).toBe(false);
    useExtraExchanges(config.venue.extraExchanges);
    expect(decodeLog(log)).toMatchObject({ kind: "OrderFilledV2", address: NEW_EXCHANGE, tokenId: 7n });
    expect(isProtocolAddress(NEW_EXCHANGE)).toBe(true);
    expect(venueContracts()).toHaveLength(BUILT_IN_CONTRACTS.length + 1);
    // A built-in address given again keeps its entry.
    useExtraExchanges([{ address: CONTRACTS.ctfExchangeV1.toLowerCase(), layout: "v2" }]);
    expect(exchangeVersion(CONTRACTS.ctfExchangeV1)).toBe("v1");
  });

  it("refuses a malformed VENUE_EXTRA_EXCHANGES with a message naming the entry", () => {
    for (const raw of [`${NEW_EXCHANGE}`, `${NEW_EXCHANGE}:v3`, "0x1234:v2", `${NEW_EXCHANGE}:v2;0xabc:v1`]) {
      expect(() => loadConfig({ VENUE_EXTRA_EXCHANGES: raw }), raw).toThrow(ConfigError);
      expect(() => loadConfig({ VENUE_EXTRA_EXCHANGES: raw }), raw).toThrow(
        /VENUE_EXTRA_EXCHANGES.*is not an exchange/,
      );
    }
    expect(loadConfig({ VENUE_EXTRA_EXCHANGES: "" }).venue.extraExchanges).toEqual([]);
  });
});

describe("isProtocolAddress", () => {
  it("knows every contract of the table in any letter case", () => {
    for (const address of PROTOCOL) {
      expect(isProtocolAddress(address)).toBe(true);
      expect(isProtocolAddress(address.toLowerCase())).toBe(true);
      expect(isProtocolAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(true);
    }
  });

  it("rejects an address that only shares a protocol address's first digits, and malformed ones", () => {
    const adapter = CONTRACTS.negRiskAdapter.toLowerCase();
    expect(isProtocolAddress(`${adapter.slice(0, 41)}${adapter.endsWith("6") ? "7" : "6"}`)).toBe(false);
    expect(isProtocolAddress(adapter.slice(0, 41))).toBe(false);
    expect(isProtocolAddress(`${adapter}0`)).toBe(false);
    expect(isProtocolAddress("")).toBe(false);
  });

  it("agrees with a plain lower-cased lookup on any address", () => {
    const lowered = new Set(PROTOCOL.map((a) => a.toLowerCase()));
    const hexDigits = fc.constantFrom(..."0123456789abcdefABCDEF");
    // Half of the cases start like a protocol address, so the exact comparison behind the first digits is exercised.
    const address = fc.oneof(
      fc.array(hexDigits, { minLength: 40, maxLength: 40 }).map((digits) => `0x${digits.join("")}`),
      fc
        .tuple(fc.constantFrom(...PROTOCOL), fc.array(hexDigits, { minLength: 0, maxLength: 34 }))
        .map(([a, tail]) => `${a.slice(0, 42 - tail.length)}${tail.join("")}`),
    );
    fc.assert(fc.property(address, (a) => isProtocolAddress(a) === lowered.has(a.toLowerCase())));
  });
});
