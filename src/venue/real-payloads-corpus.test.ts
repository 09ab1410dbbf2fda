/**
 * Coverage of test/fixtures/venue-real: every file of the folder but its README is handled by exactly one case of the
 * real-payloads tests (the tables of src/venue/testing/real-payloads.ts, gathered here from every category), and has
 * a row in the README. A new file without a case fails here.
 */
import { describe, expect, it } from "vitest";
import {
  CHAIN_LOG_FILES,
  CHAIN_LOG_LACKING_FIELDS_FILES,
  CHAIN_PROBE,
  DATA_V1,
  DATA_V2_FILES,
  DOCUMENTED_INVALID,
  GAMMA_EVENT_FILES,
  GAMMA_MARKET_FILES,
  RTDS_SUBSCRIBE_MESSAGE_FILES,
  RTDS_TRADE_FRAME_FILES,
  corpusFiles,
  corpusText,
} from "./testing/real-payloads.js";

describe("the corpus", () => {
  it("every file of the folder but its README has exactly one case here, and a row in the README", () => {
    const handled = [
      GAMMA_MARKET_FILES,
      GAMMA_EVENT_FILES,
      Object.keys(DATA_V1),
      DATA_V2_FILES,
      Object.keys(DOCUMENTED_INVALID),
      RTDS_TRADE_FRAME_FILES,
      RTDS_SUBSCRIBE_MESSAGE_FILES,
      CHAIN_LOG_FILES,
      CHAIN_LOG_LACKING_FIELDS_FILES,
      [CHAIN_PROBE],
    ].flat();
    expect(new Set(handled).size).toBe(handled.length);
    const files = corpusFiles();
    expect([...handled].sort()).toEqual(files.sort());
    const readme = corpusText("README.md");
    for (const file of files) expect(readme).toContain(`\`${file}\``);
  });
});
