/** What a report writer is: it gives the sections of one report from its inputs, or throws GenerationError. */
import { PelagicError } from "../errors/index.js";
import type { AnalysisInputs } from "./inputs.js";
import type { ReportSection } from "./sections.js";
import type { Generator } from "./tables.js";

/** What went wrong with one generation, by class: the class is stored and served; the message only logged. */
export type FailureKind =
  | "timeout"
  | "model_unreachable"
  | "model_http_error"
  | "malformed_answer"
  | "unsupported_figure"
  | "trading_advice"
  | "aborted"
  | "other";

export class GenerationError extends PelagicError {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super("AI_GENERATION_FAILED", message);
  }
}

export interface WrittenReport {
  sections: ReportSection[];
  generator: Generator;
  model: string | null;
  prompt_version: string | null;
}

export interface ReportWriter {
  readonly generator: Generator;
  /** Writes the report of `inputs`; `signal` aborts it (the process is stopping). */
  write(inputs: AnalysisInputs, signal: AbortSignal): Promise<WrittenReport>;
}
