/**
 * Decoding of the venue's logs at backfill speed. `decodeVenueLog` (viem's decodeEventLog) hashes the event
 * signature on every call and decodes about 30,000 logs/s, a ceiling of some 18,000 fills/s on one core. Every
 * venue event is made of 32-byte words (src/venue/log-words.ts), so they are sliced straight out of the topics
 * and data. A log that is not encoded exactly as the ABI encoder writes it (wrong word count, dirty address
 * padding, offsets out of place) goes through decodeVenueLog, which stays the reference (the tests compare both).
 */
import { WORD, WORD_LAYOUTS, decodeVenueLog, logPosition, type DecodedVenueLog, type RawLog, type WordLayout, type WordType } from "../venue/index.js";

const HEX = /^0x[0-9a-fA-F]*$/;
/** An array's offset or length fits in a few digits; a larger word cannot be a canonical encoding here. */
const SMALL_WORD = /^0{56}[0-9a-f]{8}$/;
const SMALL_UINT_ZEROS = "0".repeat(WORD - 13);

/** A static word's value; undefined when it is not what the ABI encoder writes for `type`. */
function readWord(word: string, type: Exclude<WordType, "uint256[]">): unknown {
  if (type === "address") {
    // An address word is 12 zero bytes then 20 bytes.
    if (!word.startsWith("000000000000000000000000")) return undefined;
    return `0x${word.slice(24)}`;
  }
  if (type === "bytes32") return `0x${word}`;
  // Amounts fit in 13 hex digits (52 bits, exact as a double): parsed as a number, skipping BigInt's text parser.
  const value = word.startsWith(SMALL_UINT_ZEROS) ? BigInt(parseInt(word.slice(SMALL_UINT_ZEROS.length), 16)) : BigInt(`0x${word}`);
  if (type === "uint8") return value > 255n ? undefined : Number(value);
  return value;
}

const NO_ARRAYS: ReadonlyMap<string, bigint[]> = new Map();

/** The `index`-th 32-byte word of the data (`data` lower case with its 0x). */
const dataWord = (data: string, index: number) => data.slice(2 + index * WORD, 2 + (index + 1) * WORD);

/**
 * The arrays of the data's tail, in field order, where the canonical encoding puts them: the first right after the
 * head, each next right after the previous one's elements, and nothing after the last. Undefined otherwise.
 */
function readArrays(data: string, layout: WordLayout): ReadonlyMap<string, bigint[]> | undefined {
  if (!layout.hasArrays) return 2 + layout.headWords * WORD === data.length ? NO_ARRAYS : undefined;
  const arrays = new Map<string, bigint[]>();
  let next = layout.headWords;
  for (const field of layout.fields) {
    if (field.type !== "uint256[]") continue;
    const offset = dataWord(data, field.index);
    if (!SMALL_WORD.test(offset) || parseInt(offset, 16) !== next * 32) return undefined;
    const lengthWord = dataWord(data, next);
    if (!SMALL_WORD.test(lengthWord)) return undefined;
    const length = parseInt(lengthWord, 16);
    if (2 + (next + 1 + length) * WORD > data.length) return undefined;
    const values: bigint[] = [];
    for (let k = 0; k < length; k++) values.push(BigInt(`0x${dataWord(data, next + 1 + k)}`));
    arrays.set(field.name, values);
    next += 1 + length;
  }
  return 2 + next * WORD === data.length ? arrays : undefined;
}

/**
 * Each event's properties in their final order, copied for each log: filling in properties that exist is cheaper
 * than adding a dozen by name, a shape transition each.
 */
const TEMPLATES = new Map(
  [...WORD_LAYOUTS.values()].map((layout) => {
    const template: Record<string, unknown> = { kind: layout.spec.kind, ...(layout.spec.version ? { version: layout.spec.version } : {}), address: "" };
    for (const field of layout.fields) template[field.name] = undefined;
    return [layout, Object.assign(template, { blockNumber: 0, blockHash: null, transactionHash: "", logIndex: 0 })] as const;
  }),
);

function decodeWords(log: RawLog, layout: WordLayout, address: string): DecodedVenueLog | null {
  const data = log.data.toLowerCase();
  // Word count and array places are checked by readArrays (the data's length must be exactly theirs).
  if (log.topics.length !== layout.topicCount || !HEX.test(data)) return null;
  for (const topic of log.topics) if (topic.length !== 2 + WORD || !HEX.test(topic)) return null;
  const arrays = readArrays(data, layout);
  if (!arrays) return null;
  const out: Record<string, unknown> = { ...TEMPLATES.get(layout) };
  out.address = address;
  for (const field of layout.fields) {
    if (field.type === "uint256[]") {
      out[field.name] = arrays.get(field.name);
      continue;
    }
    const word = field.topic ? (log.topics[field.index] as string).slice(2).toLowerCase() : dataWord(data, field.index);
    const value = readWord(word, field.type);
    if (value === undefined) return null;
    out[field.name] = value;
  }
  const position = logPosition(log);
  out.blockNumber = position.blockNumber;
  out.blockHash = position.blockHash;
  out.transactionHash = position.transactionHash;
  out.logIndex = position.logIndex;
  return out as unknown as DecodedVenueLog;
}

/** The venue event of a log encoded exactly as the ABI encoder writes it; null for any other log. */
export function decodeCanonicalLog(log: RawLog): DecodedVenueLog | null {
  const layout = WORD_LAYOUTS.get((log.topics[0] ?? "").toLowerCase());
  const address = log.address.toLowerCase();
  return layout && layout.spec.emittedBy(address) ? decodeWords(log, layout, address) : null;
}

/** Same contract as decodeVenueLog: the event, null for a log that is not a venue event, VenueLogDecodeError when it does not decode. */
export function decodeLog(log: RawLog): DecodedVenueLog | null {
  return decodeCanonicalLog(log) ?? decodeVenueLog(log);
}
