import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeVenueLog,
  encodeVenueLog,
  VENUE_EVENT_TOPICS,
  VenueLogDecodeError,
  type Hex,
  type RawLog,
  type VenueEvent,
} from "./abi.js";
import { decodeCanonicalLog, decodeLog } from "./decoder.js";
import {
  CTF,
  EXCHANGE_V1,
  EXCHANGE_V2,
  NEG_RISK_EXCHANGE_V1,
  NEG_RISK_EXCHANGE_V2,
  address,
  conversion,
  hash32,
  matchEvents,
  redemption,
  resolution,
  split,
} from "../testing/chain-events.js";

const at = (event: VenueEvent, logIndex = 3): RawLog => ({
  ...encodeVenueLog(event),
  blockNumber: "0x5f5e100",
  blockHash: hash32(9),
  transactionHash: hash32(0x77),
  logIndex: `0x${logIndex.toString(16)}`,
});

describe("decodeLog", () => {
  it("decodes the exchanges' events exactly as decodeVenueLog does, V1 and V2", () => {
    const exchanges = [EXCHANGE_V1, NEG_RISK_EXCHANGE_V1, EXCHANGE_V2, NEG_RISK_EXCHANGE_V2];
    fc.assert(
      fc.property(
        fc.constantFrom(...exchanges),
        fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }),
        fc.bigInt({ min: 1n, max: 2n ** 64n }),
        fc.bigInt({ min: 1n, max: 2n ** 64n }),
        fc.bigInt({ min: 0n, max: 2n ** 40n }),
        fc.boolean(),
        fc.integer({ min: 1, max: 2 ** 30 }),
        (exchange, token, size, usd, fee, buy, owner) => {
          const events = matchEvents(
            exchange,
            { owner: address(owner), side: buy ? "BUY" : "SELL", token, size, usd, fee },
            [{ owner: address(owner + 1), side: "BUY", token: token ^ 1n, size, usd }],
          );
          for (const [i, event] of events.entries()) {
            expect(decodeCanonicalLog(at(event, i))).toEqual(decodeVenueLog(at(event, i)));
            expect(decodeLog(at(event, i))).toEqual(decodeVenueLog(at(event, i)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads amounts and quantities exactly on both sides of the 13-hex-digit fast path", () => {
    for (const amount of [0n, 1n, 2n ** 52n - 1n, 2n ** 52n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      const [filled] = matchEvents(
        EXCHANGE_V2,
        { owner: address(1), side: "BUY", token: 5n, size: amount, usd: amount, fee: amount },
        [],
      );
      for (const blockNumber of ["0x1", "0xfffffffffffff", "0x1fffffffffffff"]) {
        const log = { ...at(filled!), blockNumber };
        const decoded = decodeLog(log);
        expect(decoded).toEqual(decodeVenueLog(log));
        expect(decoded).toMatchObject({ makerAmountFilled: amount, blockNumber: Number(BigInt(blockNumber)) });
      }
    }
  });

  it("decodes conversions, splits, merges, redemptions and resolutions (arrays included) exactly as decodeVenueLog does", () => {
    const uint = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
    const event = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 0, max: 2 ** 30 }), uint, uint)
        .map(([owner, market, set, amount]) => conversion(address(owner), hash32(market), set, amount)),
      fc
        .tuple(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.integer({ min: 0, max: 2 ** 30 }),
          uint,
          fc.boolean(),
          fc.array(uint, { maxLength: 5 }),
        )
        .map(([owner, condition, amount, merge, partition]) => ({
          ...split(address(owner), hash32(condition), amount, merge ? "PositionsMerge" : "PositionSplit"),
          partition,
        })),
      fc
        .tuple(
          fc.integer({ min: 1, max: 2 ** 30 }),
          fc.integer({ min: 0, max: 2 ** 30 }),
          uint,
          fc.array(uint, { maxLength: 5 }),
        )
        .map(([owner, condition, payout, indexSets]) => ({
          ...redemption(address(owner), hash32(condition), payout),
          indexSets,
        })),
      fc
        .tuple(fc.integer({ min: 0, max: 2 ** 30 }), fc.array(uint, { maxLength: 5 }))
        .map(([condition, payouts]) => resolution(hash32(condition), payouts)),
    );
    fc.assert(
      fc.property(event, (e) => {
        const log = at(e as VenueEvent);
        expect(decodeCanonicalLog(log)).toEqual(decodeVenueLog(log));
        expect(decodeLog(log)).toEqual(decodeVenueLog(log));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves an array that is not where the ABI encoder puts it to decodeVenueLog", () => {
    const log = at(resolution(hash32(4), [1n, 0n]));
    const words = log.data.slice(2).match(/.{64}/g)!;
    // Trailing data after the last array; an offset that points past the head; a length beyond the data.
    const trailing = { ...log, data: `${log.data}${"0".repeat(64)}` as Hex };
    const moved = {
      ...log,
      data: `0x${words[0]}${(64 + 32).toString(16).padStart(64, "0")}${words.slice(2).join("")}${"0".repeat(64)}` as Hex,
    };
    const long = {
      ...log,
      data: `0x${words.slice(0, 2).join("")}${"9".padStart(64, "0")}${words.slice(3).join("")}` as Hex,
    };
    expect(decodeCanonicalLog(log)).not.toBeNull();
    for (const odd of [trailing, moved, long]) {
      expect(decodeCanonicalLog(odd)).toBeNull();
      let expected: unknown;
      try {
        expected = decodeVenueLog(odd);
      } catch (error) {
        expected = error;
      }
      if (expected instanceof Error) expect(() => decodeLog(odd)).toThrow(VenueLogDecodeError);
      else expect(decodeLog(odd)).toEqual(expected);
    }
  });

  it("returns null for logs that are not the venue's, and throws the same error for a venue event that does not decode", () => {
    const filled = at(
      matchEvents(EXCHANGE_V2, { owner: address(1), side: "BUY", token: 5n, size: 1n, usd: 1n }, [])[0]!,
    );
    expect(decodeLog({ ...filled, address: CTF })).toBeNull();
    expect(decodeLog({ ...filled, topics: [hash32(0x1234), ...filled.topics.slice(1)] })).toBeNull();
    const cut = { ...filled, data: filled.data.slice(0, 66) as Hex };
    expect(() => decodeLog(cut)).toThrow(VenueLogDecodeError);
    expect(() => decodeVenueLog(cut)).toThrow(VenueLogDecodeError);
    // An address word with bits above its 20 bytes is not what the encoder writes: left to viem, whatever it makes of it.
    const dirty = {
      ...filled,
      topics: [VENUE_EVENT_TOPICS.OrderFilledV2, filled.topics[1]!, `0x${"f".repeat(64)}`, filled.topics[3]!],
    };
    expect(decodeLog(dirty)).toEqual(decodeVenueLog(dirty));
  });
});
