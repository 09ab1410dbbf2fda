/**
 * Who writes a report: a model behind an OpenAI-compatible chat-completions endpoint when AI_MODEL_BASE_URL is set,
 * else the deterministic writer.
 */
import type { Config } from "../config/index.js";
import { deterministicReport } from "./deterministic.js";
import { ModelWriter } from "./model-writer.js";
import type { ReportWriter } from "./report-writer.js";

export const deterministicWriter: ReportWriter = {
  generator: "deterministic",
  async write(inputs) {
    return { sections: deterministicReport(inputs), generator: "deterministic", model: null, prompt_version: null };
  },
};

export function reportWriterFor(ai: Config["ai"]): ReportWriter {
  return ai.baseUrl && ai.model
    ? new ModelWriter({ ...ai, baseUrl: ai.baseUrl, model: ai.model })
    : deterministicWriter;
}
