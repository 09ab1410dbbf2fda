import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeVenueLog, encodeVenueLog, VENUE_EVENT_TOPICS, VenueLogDecodeError, type Hex, type RawLog, type VenueEvent } from "../venue/index.js";
import { decodeLog } from "./log-decoder.js";
import { CTF, EXCHANGE_V1, EXCHANGE_V2, NEG_RISK_EXCHANGE_V1, NEG_RISK_EXCHANGE_V2, conversion, matchEvents, split } from "./testing/chain-events.js";
import { address, hash32 } from "./testing/fake-venue.js";

const at = (event: VenueEvent, logIndex = 3): RawLog => ({ ...encodeVenueLog(event), blockNumber: "0x5f5e100", blockHash: hash32(9), transactionHash: hash32(0x77), logIndex: `0x${logIndex.toString(16)}` });

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
          const events = matchEvents(exchange, { owner: address(owner), side: buy ? "BUY" : "SELL", token, size, usd, fee }, [{ owner: address(owner + 1), side: "BUY", token: token ^ 1n, size, usd }]);
          for (const [i, event] of events.entries()) expect(decodeLog(at(event, i))).toEqual(decodeVenueLog(at(event, i)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("hands every other event to decodeVenueLog", () => {
    for (const event of [split(address(5), hash32(1), 7n), conversion(address(6), hash32(2), 5n, 9n)]) expect(decodeLog(at(event))).toEqual(decodeVenueLog(at(event)));
  });

  it("returns null for logs that are not the venue's, and throws the same error for a venue event that does not decode", () => {
    const filled = at(matchEvents(EXCHANGE_V2, { owner: address(1), side: "BUY", token: 5n, size: 1n, usd: 1n }, [])[0]!);
    expect(decodeLog({ ...filled, address: CTF })).toBeNull();
    expect(decodeLog({ ...filled, topics: [hash32(0x1234), ...filled.topics.slice(1)] })).toBeNull();
    const cut = { ...filled, data: filled.data.slice(0, 66) as Hex };
    expect(() => decodeLog(cut)).toThrow(VenueLogDecodeError);
    expect(() => decodeVenueLog(cut)).toThrow(VenueLogDecodeError);
    // An address word with bits above its 20 bytes is not what the encoder writes: left to viem, whatever it makes of it.
    const dirty = { ...filled, topics: [VENUE_EVENT_TOPICS.OrderFilledV2, filled.topics[1]!, `0x${"f".repeat(64)}`, filled.topics[3]!] };
    expect(decodeLog(dirty)).toEqual(decodeVenueLog(dirty));
  });
});
