/**
 * The venue's events as 32-byte words. Every one of them is made of static fields (address, uint8, uint256,
 * bytes32), in the topics when indexed or in the data's head otherwise, and `uint256[]` arrays (partitions, index
 * sets, payouts) in the data's tail, their offsets in the head. The layouts follow the ABI items of ./abi.ts; the
 * backfill's decoder (./decoder.ts) slices these words and the simulated node writes them (1.4 µs a
 * log against viem's 6.3), viem's generic coder staying the reference (tests compare both ways).
 */
import type { EncodedLog, EventSpec, Hex, VenueEvent, VenueEventKind } from "./abi.js";
import { VENUE_EVENT_SPECS } from "./abi.js";

export type WordType = "address" | "bytes32" | "uint8" | "uint256" | "uint256[]";

export interface WordField {
  readonly name: string;
  readonly type: WordType;
  /** Indexed: topic `index`; else data head word `index`. */
  readonly topic: boolean;
  readonly index: number;
}

export interface WordLayout {
  readonly spec: EventSpec;
  readonly topic0: string;
  readonly fields: readonly WordField[];
  readonly topicCount: number;
  /** Words of the data's head: one per non-indexed field (an array's holds its offset). */
  readonly headWords: number;
  readonly hasArrays: boolean;
}

/** Hex digits per word. */
export const WORD = 64;

const WORD_TYPES = new Set<string>(["address", "bytes32", "uint8", "uint256", "uint256[]"]);

/** Null when an input is of a type not listed above (then viem codes the event). */
function layoutOf(topic0: string, spec: EventSpec): WordLayout | null {
  let topic = 1;
  let word = 0;
  const fields: WordField[] = [];
  for (const input of spec.abi.inputs) {
    if (!WORD_TYPES.has(input.type) || (input.indexed && input.type === "uint256[]")) return null;
    const type = input.type as WordType;
    fields.push(
      input.indexed
        ? { name: input.name as string, type, topic: true, index: topic++ }
        : { name: input.name as string, type, topic: false, index: word++ },
    );
  }
  return {
    spec,
    topic0,
    fields,
    topicCount: topic,
    headWords: word,
    hasArrays: fields.some((f) => f.type === "uint256[]"),
  };
}

/** Word layouts by topic0 (lower case). */
export const WORD_LAYOUTS: ReadonlyMap<string, WordLayout> = new Map(
  [...VENUE_EVENT_SPECS].flatMap(([topic0, spec]) => {
    const layout = layoutOf(topic0, spec);
    return layout ? [[topic0, layout] as const] : [];
  }),
);

const LAYOUT_BY_KIND = new Map<VenueEventKind, WordLayout>(
  [...WORD_LAYOUTS.values()].map((layout) => [layout.spec.kind, layout]),
);

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/;
const LOWER_BYTES32 = /^0x[0-9a-f]{64}$/;
const UINT256_LIMIT = 1n << 256n;
const ZERO_WORD = "0".repeat(WORD);

/** One static value as its word; null when it is not a lower-case address or bytes32, or a uint out of range. */
function wordOf(value: unknown, type: Exclude<WordType, "uint256[]">): string | null {
  if (type === "address")
    return typeof value === "string" && LOWER_ADDRESS.test(value) ? ZERO_WORD.slice(40) + value.slice(2) : null;
  if (type === "bytes32") return typeof value === "string" && LOWER_BYTES32.test(value) ? value.slice(2) : null;
  const n = typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof n !== "bigint" || n < 0n || n >= (type === "uint8" ? 256n : UINT256_LIMIT)) return null;
  return n.toString(16).padStart(WORD, "0");
}

/**
 * The log the contract emits for `event`, as viem's encodeEventTopics and encodeAbiParameters write it (addresses
 * and hashes lower case); null for a value those would check differently (mixed case, out of range), so the caller
 * can hand the event to viem.
 */
export function encodeLogWords(event: VenueEvent): EncodedLog | null {
  const layout = LAYOUT_BY_KIND.get(event.kind);
  if (!layout) return null;
  const values = event as unknown as Record<string, unknown>;
  const topics: Hex[] = [layout.topic0 as Hex];
  const head: string[] = [];
  const tail: string[] = [];
  for (const field of layout.fields) {
    const value = values[field.name];
    if (field.type === "uint256[]") {
      if (!Array.isArray(value)) return null;
      head.push(((layout.headWords + tail.length) * 32).toString(16).padStart(WORD, "0"));
      tail.push(value.length.toString(16).padStart(WORD, "0"));
      for (const element of value) {
        const word = wordOf(element, "uint256");
        if (word === null) return null;
        tail.push(word);
      }
      continue;
    }
    const word = wordOf(value, field.type);
    if (word === null) return null;
    if (field.topic) topics.push(`0x${word}`);
    else head.push(word);
  }
  return { address: event.address.toLowerCase() as Hex, topics, data: `0x${head.join("")}${tail.join("")}` };
}
