/** The AI analysis routes' schemas. */
import { Type } from "typebox";
import { AnalysisInputs } from "../../../ai/inputs.js";
import { Nullable } from "../../nullable.js";

export const AnalysisBody = Type.Object(
  {
    address: Type.String({
      description: "the wallet analysed (the proxy wallet whose statistics answer for the address), lower case",
    }),
    status: Type.Literal("ready"),
    generator: Type.Union([Type.Literal("model"), Type.Literal("deterministic")], {
      description:
        "model: written by AI_MODEL; deterministic: written from the statistics by rules (no model configured)",
    }),
    model: Nullable(Type.String({ description: "the model that wrote it" })),
    prompt_version: Nullable(Type.String({ description: "the prompt file it was written with (model reports)" })),
    generated_at: Type.Integer({ description: "unix seconds" }),
    expires_at: Type.Integer({
      description: "generated_at + AI_ANALYSIS_FRESH_HOURS: until then the generate call reuses it",
    }),
    stale: Type.Boolean({
      description: "older than AI_ANALYSIS_FRESH_HOURS: still served, and its regeneration is queued",
    }),
    report: Type.String({ description: "the whole report, Markdown, one `## Title` per section" }),
    sections: Type.Array(Type.Object({ key: Type.String(), title: Type.String(), text: Type.String() }), {
      description: "summary, style, edge_and_skill, verdicts, strengths, risks, recent_changes, in that order",
    }),
    inputs: AnalysisInputs,
  },
  { description: "The saved AI analysis of a wallet, with the statistics it quotes" },
);

export const NotYetBody = Type.Object(
  {
    detail: Type.String(),
    status: Type.Optional(
      Type.Literal("pending", { description: "present when the analysis is queued: the contract's pending reply" }),
    ),
    retry_after_seconds: Type.Optional(
      Type.Integer({ description: "when to ask again (also the Retry-After header)" }),
    ),
    attempts: Type.Optional(Type.Integer({ description: "failed generation attempts so far" })),
    last_error: Type.Optional(
      Nullable(
        Type.String({
          description:
            "class of the last failure: timeout, model_unreachable, model_http_error, malformed_answer, unsupported_figure, trading_advice, other",
        }),
      ),
    ),
  },
  {
    description:
      "No saved AI analysis yet (status pending: its generation is queued), or an unknown wallet (detail only)",
  },
);

/** The local generate call: whether a fresh saved analysis is written again. */
export const GenerateQuery = Type.Object({
  force: Type.Boolean({ default: false, description: "regenerate even when a fresh analysis is saved" }),
});
