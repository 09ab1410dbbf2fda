/**
 * Decoding of the venue's logs at backfill speed. `decodeVenueLog` (viem's decodeEventLog) hashes the event
 * signature on every call and decodes about 30,000 logs/s, a ceiling of some 18,000 fills/s on one core. Every
 * venue event is made of 32-byte words (words.ts), so they are sliced straight out of the topics and data. A log
 * that is not encoded exactly as the ABI encoder writes it (wrong word count, dirty address padding, offsets out of
 * place) goes through decodeVenueLog, which stays the reference (the tests compare both).
 */
import type { RpcLog } from "../shapes/json-rpc.js";
import { decodeVenueLog, logPosition, type DecodedVenueLog, type LogPosition, type RawLog } from "./abi.js";
import { WORD, WORD_LAYOUTS, type WordField, type WordLayout, type WordType } from "./words.js";

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
  const value = word.startsWith(SMALL_UINT_ZEROS)
    ? BigInt(parseInt(word.slice(SMALL_UINT_ZEROS.length), 16))
    : BigInt(`0x${word}`);
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
    for (let k = 0; k < length; k++) values.push(readWord(dataWord(data, next + 1 + k), "uint256") as bigint);
    arrays.set(field.name, values);
    next += 1 + length;
  }
  return 2 + next * WORD === data.length ? arrays : undefined;
}

/** Makes one event from its address, field values (in layout order) and place on chain. */
type EventBuilder = (address: string, values: readonly unknown[], position: LogPosition) => DecodedVenueLog;

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One builder per event kind, compiled to a single object literal (`{ kind: "OrderFilledV2", version: "v2", address,
 * orderHash: values[0], ... }`): every event of a kind gets one shape at once, where adding a dozen properties by
 * name went through a shape transition each, and a shared copy of per-kind templates went megamorphic over 9 kinds.
 */
const BUILDERS = new Map(
  [...WORD_LAYOUTS.values()].map((layout) => {
    for (const field of layout.fields)
      if (!FIELD_NAME.test(field.name)) throw new Error(`unexpected event field name ${field.name}`);
    const properties = [
      `kind: ${JSON.stringify(layout.spec.kind)}`,
      ...(layout.spec.version ? [`version: ${JSON.stringify(layout.spec.version)}`] : []),
      "address",
      ...layout.fields.map((field, i) => `${field.name}: values[${i}]`),
      "blockNumber: position.blockNumber, blockHash: position.blockHash, transactionHash: position.transactionHash, logIndex: position.logIndex",
    ];
    return [
      layout,
      new Function("address", "values", "position", `return { ${properties.join(", ")} };`) as EventBuilder,
    ] as const;
  }),
);

/** Field values of the log being decoded, reused (decoding is synchronous and the builder copies them out). */
const VALUES: unknown[] = [];

function decodeWords(log: RawLog, layout: WordLayout, address: string, hexChecked: boolean): DecodedVenueLog | null {
  const data = log.data.toLowerCase();
  // Word count and array places are checked by readArrays (the data's length must be exactly theirs).
  if (log.topics.length !== layout.topicCount) return null;
  if (!hexChecked) {
    if (!HEX.test(data)) return null;
    for (const topic of log.topics) if (topic.length !== 2 + WORD || !HEX.test(topic)) return null;
  }
  const arrays = readArrays(data, layout);
  if (!arrays) return null;
  const fields = layout.fields;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as WordField;
    if (field.type === "uint256[]") {
      VALUES[i] = arrays.get(field.name);
      continue;
    }
    const word = field.topic ? (log.topics[field.index] as string).slice(2).toLowerCase() : dataWord(data, field.index);
    const value = readWord(word, field.type);
    if (value === undefined) return null;
    VALUES[i] = value;
  }
  return (BUILDERS.get(layout) as EventBuilder)(address, VALUES, logPosition(log));
}

/**
 * The venue event of a log encoded exactly as the ABI encoder writes it; null for any other log. `hexChecked`: the
 * log passed RpcLogShape (its topics are 32-byte hex words, its data hex), so that is not tested twice.
 */
export function decodeCanonicalLog(log: RawLog, hexChecked = false): DecodedVenueLog | null {
  const layout = WORD_LAYOUTS.get((log.topics[0] ?? "").toLowerCase());
  const address = log.address.toLowerCase();
  return layout && layout.spec.emittedBy(address) ? decodeWords(log, layout, address, hexChecked) : null;
}

/** Same contract as decodeVenueLog: the event, null for a log that is not a venue event, VenueLogDecodeError when it does not decode. */
export function decodeLog(log: RawLog): DecodedVenueLog | null {
  return decodeCanonicalLog(log) ?? decodeVenueLog(log);
}

/** decodeLog for a log of an eth_getLogs answer, which ChainClient has checked against RpcLogShape. */
export function decodeRpcLog(log: RpcLog): DecodedVenueLog | null {
  return decodeCanonicalLog(log, true) ?? decodeVenueLog(log);
}
