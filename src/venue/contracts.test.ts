import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTRACTS, isProtocolAddress } from "./contracts.js";

const PROTOCOL = [
  CONTRACTS.ctfExchangeV1,
  CONTRACTS.negRiskCtfExchangeV1,
  CONTRACTS.ctfExchangeV2,
  CONTRACTS.negRiskCtfExchangeV2,
  CONTRACTS.negRiskAdapter,
];

describe("isProtocolAddress", () => {
  it("knows the four exchanges and the NegRisk adapter in any letter case", () => {
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
