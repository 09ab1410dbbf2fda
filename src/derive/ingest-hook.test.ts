import { describe, expect, it } from "vitest";
import type { Ingest } from "../ingest/index.js";
import type { CommittedSource } from "./index.js";

describe("the ingest hook", () => {
  it("takes the ingest's committed batches as they are", () => {
    // Compile-time: the ingest is a source of committed rows the Deriver can listen to.
    const asSource = (ingest: Ingest): CommittedSource => ingest;
    expect(asSource).toBeTypeOf("function");
  });
});
