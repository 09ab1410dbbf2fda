/**
 * Decoding of the venue's logs at backfill speed. `decodeVenueLog` (viem's decodeEventLog) hashes the event
 * signature on every call and decodes about 30,000 logs/s, a ceiling of some 18,000 fills/s on one core. Every
 * venue event is made of 32-byte words: static fields (address, uintN, bytes32) in the topics or the data's head,
 * and `uint256[]` arrays (partitions, index sets, payouts) in the data's tail. So their words are sliced straight
 * out of the topics and data, following the ABI items of src/venue/abi.ts. A log that is not encoded exactly as
 * the ABI encoder writes it (wrong word count, dirty address padding, offsets out of place) goes through
 * decodeVenueLog, which stays the reference (the tests compare both).
 */
import type { AbiEvent } from "viem";
import { VENUE_EVENT_SPECS, decodeVenueLog, logPosition, type DecodedVenueLog, type EventSpec, type RawLog } from "../venue/index.js";

type WordType = "address" | "bytes32" | "uint8" | "uint256" | "uint256[]";

interface Field {
  readonly name: string;
  readonly type: WordType;
  /** Indexed: topic `index`; else data head word `index`. */
  readonly topic: boolean;
  readonly index: number;
}

interface WordLayout {
  readonly spec: EventSpec;
  readonly fields: readonly Field[];
  readonly topicCount: number;
  /** Words of the data's head: one per non-indexed field (an array's holds its offset). */
  readonly headWords: number;
}

const WORD_TYPES = new Set<string>(["address", "bytes32", "uint8", "uint256", "uint256[]"]);

/** Null when an input is of a type this decoder does not read (viem then decodes the event). */
function layoutOf(spec: EventSpec): WordLayout | null {
  const abi: AbiEvent = spec.abi;
  let topic = 1;
  let word = 0;
  const fields: Field[] = [];
  for (const input of abi.inputs) {
    if (!WORD_TYPES.has(input.type) || (input.indexed && input.type === "uint256[]")) return null;
    const type = input.type as WordType;
    fields.push(input.indexed ? { name: input.name as string, type, topic: true, index: topic++ } : { name: input.name as string, type, topic: false, index: word++ });
  }
  return { spec, fields, topicCount: topic, headWords: word };
}

const LAYOUTS = new Map<string, WordLayout>();
for (const [topic, spec] of VENUE_EVENT_SPECS) {
  const layout = layoutOf(spec);
  if (layout) LAYOUTS.set(topic, layout);
}

const HEX = /^0x[0-9a-fA-F]*$/;
const WORD = 64;
/** An array's offset or length fits in a few digits; a larger word cannot be a canonical encoding here. */
const SMALL_WORD = /^0{56}[0-9a-f]{8}$/;

/** A static word's value; undefined when it is not what the ABI encoder writes for `type`. */
function readWord(word: string, type: Exclude<WordType, "uint256[]">): unknown {
  if (type === "address") {
    // An address word is 12 zero bytes then 20 bytes.
    if (!word.startsWith("000000000000000000000000")) return undefined;
    return `0x${word.slice(24)}`;
  }
  if (type === "bytes32") return `0x${word}`;
  const value = BigInt(`0x${word}`);
  if (type === "uint8") return value > 255n ? undefined : Number(value);
  return value;
}

/** The `index`-th 32-byte word of the data (`data` lower case with its 0x). */
const dataWord = (data: string, index: number) => data.slice(2 + index * WORD, 2 + (index + 1) * WORD);

/**
 * The arrays of the data's tail, in field order, where the canonical encoding puts them: the first right after the
 * head, each next right after the previous one's elements, and nothing after the last. Undefined otherwise.
 */
function readArrays(data: string, layout: WordLayout): Map<string, bigint[]> | undefined {
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

function decodeWords(log: RawLog, layout: WordLayout, address: string): DecodedVenueLog | null {
  const data = log.data.toLowerCase();
  if (log.topics.length !== layout.topicCount || data.length < 2 + layout.headWords * WORD || (data.length - 2) % WORD !== 0 || !HEX.test(data)) return null;
  for (const topic of log.topics) if (topic.length !== 2 + WORD || !HEX.test(topic)) return null;
  const arrays = readArrays(data, layout);
  if (!arrays) return null;
  const out: Record<string, unknown> = { kind: layout.spec.kind };
  if (layout.spec.version) out.version = layout.spec.version;
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
  return Object.assign(out, logPosition(log)) as unknown as DecodedVenueLog;
}

/** The venue event of a log encoded exactly as the ABI encoder writes it; null for any other log. */
export function decodeCanonicalLog(log: RawLog): DecodedVenueLog | null {
  const layout = LAYOUTS.get((log.topics[0] ?? "").toLowerCase());
  const address = log.address.toLowerCase();
  return layout && layout.spec.emittedBy(address) ? decodeWords(log, layout, address) : null;
}

/** Same contract as decodeVenueLog: the event, null for a log that is not a venue event, VenueLogDecodeError when it does not decode. */
export function decodeLog(log: RawLog): DecodedVenueLog | null {
  return decodeCanonicalLog(log) ?? decodeVenueLog(log);
}
