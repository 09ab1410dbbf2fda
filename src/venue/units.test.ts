import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divRound, parseVenueTime, productMicro, toMicro, toMicroOrNull } from "./units.js";

describe("toMicro", () => {
  it("rounds the decimal digits half away from zero", () => {
    expect(toMicro(0.1234565)).toBe(123_457);
    expect(toMicro("0.1234565")).toBe(123_457);
    expect(toMicro(-0.1234565)).toBe(-123_457);
    expect(toMicro(0.1234564)).toBe(123_456);
    expect(toMicro("32257.445115")).toBe(32_257_445_115);
    expect(toMicro(5e-7)).toBe(1);
    expect(toMicro(4e-7)).toBe(0);
    expect(toMicro(-1e-9)).toBe(0);
    expect(Object.is(toMicro(-1e-9), -0)).toBe(false);
    expect(toMicro("1.5e3")).toBe(1_500_000_000);
    expect(toMicro(".5")).toBe(500_000);
    expect(toMicro("7")).toBe(7_000_000);
  });

  it("refuses what is not a finite decimal or does not fit 2^53", () => {
    for (const bad of ["", "abc", "1,5", ".", "0x10"]) expect(() => toMicro(bad)).toThrow(RangeError);
    expect(() => toMicro(Number.NaN)).toThrow(RangeError);
    expect(() => toMicro(1e12)).toThrow(RangeError);
    expect(toMicroOrNull(null)).toBeNull();
    expect(toMicroOrNull("")).toBeNull();
  });

  it("is exact for every amount with at most six decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (micro) => {
        const sign = micro < 0 ? "-" : "";
        const abs = Math.abs(micro);
        const text = `${sign}${Math.floor(abs / 1e6)}.${String(abs % 1e6).padStart(6, "0")}`;
        expect(toMicro(text)).toBe(micro === 0 ? 0 : micro);
        expect(toMicro(Number(text))).toBe(micro === 0 ? 0 : micro);
      }),
    );
  });
});

describe("productMicro", () => {
  it("multiplies exactly and rounds once", () => {
    expect(productMicro(10.5, 0.42)).toBe(4_410_000);
    expect(productMicro(100, 0.6)).toBe(60_000_000);
    // 0.043 × 0.0005 = 0.0000215 exactly: rounds to 22 micro, where Math.round(x*y*1e6) gives 21.
    expect(productMicro(0.043, 0.0005)).toBe(22);
    expect(Math.round(0.043 * 0.0005 * 1e6)).toBe(21);
  });
});

describe("divRound", () => {
  it("rounds half away from zero", () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(4n, 3n)).toBe(1n);
  });
});

describe("parseVenueTime", () => {
  it("reads ISO, Postgres-style and date-only times", () => {
    expect(parseVenueTime("2026-09-24 14:02:16+00")).toBe(Date.UTC(2026, 8, 24, 14, 2, 16) / 1000);
    expect(parseVenueTime("2020-11-04T00:00:00Z")).toBe(Date.UTC(2020, 10, 4) / 1000);
    expect(parseVenueTime("2020-11-04")).toBe(Date.UTC(2020, 10, 4) / 1000);
    expect(parseVenueTime("2026-01-02T03:04:05.678Z")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5) / 1000);
    expect(parseVenueTime("2026-01-02 03:04:05-05")).toBe(Date.UTC(2026, 0, 2, 8, 4, 5) / 1000);
    expect(parseVenueTime("")).toBeNull();
    expect(parseVenueTime("soon")).toBeNull();
  });
});
