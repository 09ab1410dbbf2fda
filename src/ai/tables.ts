/**
 * Row types of the AI analysis tables (migration `0010_ai_analyses`), kept beside the code that owns them; `aiDb`
 * gives a store's Kysely (or a transaction's) these tables too.
 */
import type { Kysely } from "kysely";
import type { Database } from "../store/schema.js";

export type Generator = "model" | "deterministic";

/** One saved analysis per wallet (its proxy), replaced whole by each generation. */
export interface AiAnalysesTable {
  wallet: string;
  generated_at: number;
  generator: Generator;
  /** The model that wrote it; null for the deterministic report. */
  model: string | null;
  /** The prompt file it was written with (`wallet-analysis.v1`); null for the deterministic report. */
  prompt_version: string | null;
  /** The whole report, Markdown: one `## Title` per section. */
  report: string;
  /** JSON: the sections `[{key, title, text}]` in order. */
  sections: string;
  /** JSON: the statistics the report was written from (`AnalysisInputs`). */
  inputs: string;
}

/** A wallet waiting for an analysis. */
export interface AiAnalysisJobsTable {
  wallet: string;
  requested_at: number;
  /** 1: regenerate even if a fresh analysis exists (a generate call with force=true that failed). */
  force: number;
  /** Failed attempts so far. */
  attempts: number;
  /** Not taken before this time (a failed attempt's backoff). */
  next_attempt_at: number;
  /** Class of the last failure (timeout, model_http_error, malformed_answer, ...): never the text, which may quote a secret. */
  last_error: string | null;
  /** The process generating it now, while `lease_until` has not passed. */
  lease_owner: string | null;
  lease_until: number | null;
}

export type AiTables = {
  ai_analyses: AiAnalysesTable;
  ai_analysis_jobs: AiAnalysisJobsTable;
};

export type AiDb = Kysely<Database & AiTables>;

export const aiDb = (db: Kysely<Database>): AiDb => db.withTables<AiTables>();
