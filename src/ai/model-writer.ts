/**
 * A report written by a model behind any OpenAI-compatible chat-completions endpoint (OpenAI, or a local Ollama or
 * llama.cpp server at its /v1 root), through the `openai` client: one request per attempt (the queue does the
 * retrying), bounded by AI_MODEL_TIMEOUT_MS. The answer is checked before anything is kept (`checkAnswer`).
 * The key is never logged: the client's own logging is off, and every error text is scrubbed of it.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { Config } from "../config/index.js";
import type { AnalysisInputs } from "./inputs.js";
import { PROMPT_VERSION, promptMessages } from "./prompt.js";
import { GenerationError, type ReportWriter, type WrittenReport } from "./report-writer.js";
import { MalformedAnswer, checkAnswer } from "./sections.js";

/** Characters of answer per token asked for, at most: an answer longer than this is not one the model was asked for. */
const CHARS_PER_TOKEN = 8;

type ModelSettings = Config["ai"] & { baseUrl: string; model: string };

/** The first choice's text, or why the body is not a chat completion. */
function answerOf(body: unknown): string {
  const choice = (body as { choices?: unknown } | null)?.choices;
  const first = Array.isArray(choice)
    ? (choice[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined)
    : undefined;
  const content = first?.message?.content;
  if (typeof content !== "string" || !content.trim())
    throw new GenerationError("malformed_answer", "the body is not a chat completion with a text answer");
  if (first?.finish_reason === "length")
    throw new GenerationError("malformed_answer", "the answer was cut off at AI_MODEL_MAX_TOKENS");
  return content;
}

export class ModelWriter implements ReportWriter {
  readonly generator = "model" as const;
  private readonly client: OpenAI;

  constructor(private readonly settings: ModelSettings) {
    this.client = new OpenAI({
      baseURL: settings.baseUrl,
      // The client insists on a key; without one, the Authorization header is left out (local servers need none).
      apiKey: settings.apiKey ?? "none",
      defaultHeaders: settings.apiKey ? {} : { Authorization: null },
      organization: null,
      project: null,
      timeout: settings.timeoutMs,
      maxRetries: 0,
      logLevel: "off",
    });
  }

  get model(): string {
    return this.settings.model;
  }

  /** An error's text without the key (a server may echo it back). */
  private scrub(text: string): string {
    const key = this.settings.apiKey;
    return key ? text.split(key).join("[redacted]") : text;
  }

  private failure(error: unknown): GenerationError {
    if (error instanceof GenerationError) return new GenerationError(error.kind, this.scrub(error.message));
    if (error instanceof MalformedAnswer) return new GenerationError(error.kind, error.message);
    if (error instanceof APIUserAbortError) return new GenerationError("aborted", "stopped with the process");
    if (error instanceof APIConnectionTimeoutError)
      return new GenerationError("timeout", `no answer within ${this.settings.timeoutMs} ms`);
    if (error instanceof APIConnectionError) return new GenerationError("model_unreachable", this.scrub(error.message));
    if (error instanceof APIError)
      return new GenerationError("model_http_error", this.scrub(`HTTP ${error.status ?? "?"}: ${error.message}`));
    return new GenerationError("other", this.scrub(error instanceof Error ? error.message : String(error)));
  }

  async write(inputs: AnalysisInputs, signal: AbortSignal): Promise<WrittenReport> {
    const { system, user } = promptMessages(inputs);
    try {
      const body: unknown = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          messages: [
            { role: "system", content: system },
            { role: "user", content: user },
          ],
          temperature: this.settings.temperature,
          max_tokens: this.settings.maxTokens,
        },
        { signal },
      );
      const sections = checkAnswer(answerOf(body), inputs, this.settings.maxTokens * CHARS_PER_TOKEN);
      return { sections, generator: "model", model: this.settings.model, prompt_version: PROMPT_VERSION };
    } catch (error) {
      throw this.failure(error);
    }
  }
}
