/**
 * Test support: the published venue payloads of test/fixtures/venue-real (see its README: where each file comes from
 * and the quirks it shows), read from disk, and which case of the real-payloads tests (src/venue/real-payloads-*.test.ts)
 * handles each file. The files are read, never written.
 *
 * Each category's table below names its files; the test of that category keeps, per file, what it must find, in a
 * table keyed by the same names (the compiler holds the two to the same files). Every file of the folder but its
 * README is in exactly one table here: real-payloads-corpus.test.ts gathers them all and fails on a file without one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { packagePath } from "../../package.js";

export const CORPUS = pathToFileURL(packagePath("test", "fixtures", "venue-real") + "/");
export const corpusText = (file: string): string => readFileSync(new URL(file, CORPUS), "utf8");
/** A fresh parse each time: no test sees what another did to its copy. */
export const corpusJson = (file: string): unknown => JSON.parse(corpusText(file));
/** The files of the folder, its README left out. */
export const corpusFiles = (): string[] => readdirSync(CORPUS).filter((f) => f !== "README.md");

export type Json = Record<string, unknown>;
export const asRows = (payload: unknown): Json[] => payload as Json[];
export const asObject = (payload: unknown): Json => payload as Json;

/** A micro-unit integer that is the raw decimal to within the rounding to 6 decimals. */
export function expectMicro(micro: number | null, raw: unknown): void {
  expect(Number.isSafeInteger(micro)).toBe(true);
  expect(Math.abs((micro as number) - Number(raw) * 1_000_000)).toBeLessThanOrEqual(0.51);
}

// ---------------------------------------------------------------------------------------------------------------
// Gamma (real-payloads-gamma.test.ts)

/** Gamma `/markets` objects. */
export const GAMMA_MARKET_FILES = [
  "gamma-market.nautilus-btc-updown-5m.json",
  "gamma-market-resolved.nautilus-ceasefire.json",
  "gamma-market-feeschedule-resolved.nautilus-sports.json",
  "gamma-market-negrisk-feeschedule.nautilus-newsom.json",
] as const;
export type GammaMarketFile = (typeof GAMMA_MARKET_FILES)[number];

/** Gamma event payloads: `/events` (an array) or one event object. */
export const GAMMA_EVENT_FILES = [
  "gamma-events.nautilus-negrisk-dem-nominee-2028.json",
  "gamma-event.pscanner-microstrategy.json",
] as const;
export type GammaEventFile = (typeof GAMMA_EVENT_FILES)[number];

// ---------------------------------------------------------------------------------------------------------------
// Data API (real-payloads-data-api.test.ts, real-payloads-data-api-v2.test.ts)

/** The Data API v1 endpoints, by the path the client asks. */
export const V1_PATHS = {
  trades: "/trades",
  activity: "/activity",
  positions: "/positions",
  closedPositions: "/closed-positions",
  leaderboard: "/v1/leaderboard",
} as const;
export type V1Endpoint = keyof typeof V1_PATHS;

/** Real v1 payloads: every row must parse and normalize. The endpoint that serves each, and its number of rows. */
const dataV1 = {
  "data-api-trades.v1.smart-money.json": { endpoint: "trades", rows: 5 },
  "data-api-activity.v1.smart-money-redeem-trade.json": { endpoint: "activity", rows: 15 },
  "data-api-activity.v1.smart-money-rewards-rebates.json": { endpoint: "activity", rows: 50 },
  "data-api-positions.v1.smart-money.json": { endpoint: "positions", rows: 2 },
  "data-api-positions.v1.pscanner-redeemable-losers.json": { endpoint: "positions", rows: 5 },
  "data-api-closed-positions.v1.pscanner.json": { endpoint: "closedPositions", rows: 5 },
  "data-api-leaderboard.v1.smart-money.json": { endpoint: "leaderboard", rows: 50 },
} satisfies Record<string, { endpoint: V1Endpoint; rows: number }>;
export type DataV1File = keyof typeof dataV1;
export const DATA_V1: Readonly<Record<DataV1File, { readonly endpoint: V1Endpoint; readonly rows: number }>> = dataV1;
export const DATA_V1_FILES = Object.keys(DATA_V1) as DataV1File[];

/** Data API v2 payloads: no reader yet; the v1 shapes and clients must refuse them. */
export const DATA_V2_FILES = [
  "data-api-trades.v2.py-sdk.json",
  "data-api-trades-envelope.v2.nautilus-sanitized.json",
  "data-api-activity.v2.py-sdk.json",
  "data-api-positions.v2.py-sdk.json",
  "data-api-leaderboard.v2.py-sdk.json",
  "data-api-holders.v2.py-sdk.json",
  "data-api-value.v2.py-sdk.json",
  "data-api-user-pnl.v2.py-sdk.json",
] as const;
export type DataV2File = (typeof DATA_V2_FILES)[number];

// ---------------------------------------------------------------------------------------------------------------
// Documentation examples known not to be valid payloads (real-payloads-doc-examples.test.ts)

/** Each with the Data API endpoint whose client would meet it, if any. */
const documentedInvalid = {
  "data-api-trades.v1.docs-legacy.json": { endpoint: "trades" },
  "data-api-activity.v1.docs-legacy.json": { endpoint: "activity" },
  "data-api-positions.v1.docs-numeric-address.json": { endpoint: "positions" },
  "data-api-closed-positions.v1.docs.json": { endpoint: "closedPositions" },
  "gamma-market-outcomes-snippet.docs.json": {},
  "rtds-envelope.docs.json": {},
} satisfies Record<string, { endpoint?: V1Endpoint }>;
export type DocumentedInvalidFile = keyof typeof documentedInvalid;
export const DOCUMENTED_INVALID: Readonly<Record<DocumentedInvalidFile, { readonly endpoint?: V1Endpoint }>> =
  documentedInvalid;
export const DOCUMENTED_INVALID_FILES = Object.keys(DOCUMENTED_INVALID) as DocumentedInvalidFile[];

// ---------------------------------------------------------------------------------------------------------------
// RTDS (real-payloads-rtds.test.ts)

/** `activity`/`trades` frames, each giving a trade. */
export const RTDS_TRADE_FRAME_FILES = ["rtds-activity-trades.pmcmc.json"] as const;
export type RtdsTradeFrameFile = (typeof RTDS_TRADE_FRAME_FILES)[number];

/** Subscribe messages, to compare with the one the client sends. */
export const RTDS_SUBSCRIBE_MESSAGE_FILES = ["rtds-subscribe.docs.json"] as const;

// ---------------------------------------------------------------------------------------------------------------
// Chain logs (real-payloads-chain.test.ts)

/** Single logs, each decoding into one event. */
export const CHAIN_LOG_FILES = [
  "chain-v1-orderfilled.vike-trader.json",
  "chain-v2-orderfilled.vike-trader.json",
  "chain-ctf-positionsplit.vike-trader.json",
  "chain-ctf-positionsmerge-via-adapter.vike-trader.json",
  "chain-negrisk-positionsconverted.vike-trader.json",
  "chain-ctf-payoutredemption.vike-trader.json",
  "chain-negrisk-payoutredemption.vike-trader.json",
  "chain-ctf-conditionresolution.vike-trader.json",
] as const;
export type ChainLogFile = (typeof CHAIN_LOG_FILES)[number];

/** Logs published without a field the decoder needs. */
export const CHAIN_LOG_LACKING_FIELDS_FILES = ["chain-ctf-transferbatch-negrisk-redeem.vike-trader.json"] as const;
export type ChainLogLackingFieldsFile = (typeof CHAIN_LOG_LACKING_FIELDS_FILES)[number];

/** The V2 exchanges' logs, sampled by topic. */
export const CHAIN_PROBE = "chain-v2-exchange-logs-probe.whalewatch.json";
