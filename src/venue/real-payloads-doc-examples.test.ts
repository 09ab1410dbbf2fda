/**
 * The documentation examples of test/fixtures/venue-real known not to be valid payloads (src/venue/testing/
 * real-payloads.ts names them): refused (rejected rows), never a crash.
 */
import type { TSchema } from "typebox";
import { describe, expect, it } from "vitest";
import {
  DataActivityRowShape,
  DataClosedPositionRowShape,
  DataPositionRowShape,
  DataTradeRowShape,
  GammaMarketShape,
  RtdsEnvelopeShape,
  VenueShapeError,
  parseJsonStringArray,
  partitionRows,
  type Shape,
} from "./shapes/index.js";
import {
  DOCUMENTED_INVALID_FILES,
  asObject,
  asRows,
  corpusJson,
  type DocumentedInvalidFile,
  type Json,
} from "./testing/real-payloads.js";
import { toMicro } from "./units.js";

interface InvalidExample {
  readonly reason: string;
  readonly shape: Shape<TSchema>;
  /** Paths the shape names among its issues. */
  readonly paths: readonly string[];
  /** The reason, checked in the payload itself. */
  readonly confirm: (row: Json) => void;
}

const hexDigits = (value: unknown) => (value as string).length - 2;

const INVALID_EXAMPLES: Record<DocumentedInvalidFile, InvalidExample> = {
  "data-api-trades.v1.docs-legacy.json": {
    reason: "truncated hex in the published example: conditionId has 59 hex digits, transactionHash 55",
    shape: DataTradeRowShape,
    paths: ["/conditionId", "/transactionHash"],
    confirm: (row) => expect([hexDigits(row.conditionId), hexDigits(row.transactionHash)]).toEqual([59, 55]),
  },
  "data-api-activity.v1.docs-legacy.json": {
    reason: "truncated hex in the published example: conditionId has 60 hex digits, transactionHash 55",
    shape: DataActivityRowShape,
    paths: ["/conditionId", "/transactionHash"],
    confirm: (row) => expect([hexDigits(row.conditionId), hexDigits(row.transactionHash)]).toEqual([60, 55]),
  },
  "data-api-positions.v1.docs-numeric-address.json": {
    reason:
      'proxyWallet and conditionId are JSON numbers (the docs generator turned 0x… into floats); asset "<string>"',
    shape: DataPositionRowShape,
    paths: ["/proxyWallet", "/conditionId", "/asset"],
    confirm: (row) =>
      expect([typeof row.proxyWallet, typeof row.conditionId, row.asset]).toEqual(["number", "number", "<string>"]),
  },
  "data-api-closed-positions.v1.docs.json": {
    reason: 'placeholder values (asset and oppositeAsset "<string>", prices 123) and no timestamp',
    shape: DataClosedPositionRowShape,
    paths: ["", "/asset", "/oppositeAsset"],
    confirm: (row) => {
      expect([row.asset, row.oppositeAsset, row.curPrice]).toEqual(["<string>", "<string>", 123]);
      expect("timestamp" in row).toBe(false);
    },
  },
  "gamma-market-outcomes-snippet.docs.json": {
    reason: "a snippet of two fields (outcomes, outcomePrices), not a market",
    shape: GammaMarketShape,
    paths: [""],
    confirm: (row) => expect(Object.keys(row)).toEqual(["outcomes", "outcomePrices"]),
  },
  "rtds-envelope.docs.json": {
    reason: 'the documented message structure: type names in place of values ("timestamp": "number")',
    shape: RtdsEnvelopeShape,
    paths: ["/timestamp"],
    confirm: (row) => expect([row.timestamp, row.payload]).toEqual(["number", "object"]),
  },
};

describe("documentation examples that are not valid payloads", () => {
  it.each(DOCUMENTED_INVALID_FILES.map((file) => [file, INVALID_EXAMPLES[file].reason] as const))(
    "%s is refused: %s",
    (file) => {
      const example = INVALID_EXAMPLES[file];
      const payload = corpusJson(file);
      const rows = Array.isArray(payload) ? asRows(payload) : [asObject(payload)];
      for (const row of rows) example.confirm(row);
      const { rows: read, rejected } = partitionRows(example.shape, rows, file);
      expect(read).toEqual([]);
      expect(rejected).toHaveLength(rows.length);
      const paths = new Set(rejected.flatMap((r) => r.issues.map((i) => i.path)));
      for (const path of example.paths) expect(paths).toContain(path);
      for (const row of rows) expect(() => example.shape.parse(row, file)).toThrow(VenueShapeError);
    },
  );

  it("the outcomes snippet's JSON-in-a-string arrays are read as the project reads them in a market", () => {
    const snippet = asObject(corpusJson("gamma-market-outcomes-snippet.docs.json"));
    expect(parseJsonStringArray(snippet.outcomes as string)).toEqual(["Yes", "No"]);
    // "0.20": a trailing zero.
    expect(parseJsonStringArray(snippet.outcomePrices as string)?.map(toMicro)).toEqual([200_000, 800_000]);
  });
});
