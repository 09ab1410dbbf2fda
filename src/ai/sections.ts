/**
 * The sections every report has, in order, and the check of a model's answer: Markdown with one `## Title` heading
 * per section, each section's text made plain (no HTML, links or URLs: plain-text.ts). An answer missing a section,
 * with an empty one, claiming certain returns or telling the reader to trade (advice.ts), or quoting a figure that
 * is not among the inputs is malformed: the generation fails and is retried, and nothing of it is saved.
 */
import { PelagicError } from "../errors/index.js";
import { adviceIn } from "./advice.js";
import { unsupportedFigures } from "./figures.js";
import type { AnalysisInputs } from "./inputs.js";
import { plainText } from "./plain-text.js";

export const SECTIONS = [
  { key: "summary", title: "Summary" },
  { key: "style", title: "Style" },
  { key: "edge_and_skill", title: "Edge and skill" },
  { key: "verdicts", title: "Smart Money and farmer verdicts" },
  { key: "strengths", title: "Strengths" },
  { key: "risks", title: "Risks" },
  { key: "recent_changes", title: "Recent changes" },
] as const;

export type SectionKey = (typeof SECTIONS)[number]["key"];

export interface ReportSection {
  key: SectionKey;
  title: string;
  text: string;
}

/** Why an answer cannot be saved; `kind` is what the queue records (never the answer itself). */
export class MalformedAnswer extends PelagicError {
  constructor(
    readonly kind: "malformed_answer" | "unsupported_figure" | "trading_advice",
    message: string,
  ) {
    super("AI_ANSWER_MALFORMED", message);
  }
}

const HEADING = /^#{1,3}\s+(?:\d+[.)]\s*)?(.+?)\s*:?\s*#*\s*$/;
const normalize = (title: string) => title.replace(/[*_`]/g, "").trim().toLowerCase();
const BY_TITLE = new Map<string, (typeof SECTIONS)[number]>(SECTIONS.map((s) => [normalize(s.title), s]));

/** The report as saved: each section under its `## Title`. */
export function renderReport(sections: readonly ReportSection[]): string {
  return sections.map((s) => `## ${s.title}\n\n${s.text}`).join("\n\n") + "\n";
}

/**
 * The required sections of a Markdown answer, in the required order. Text before the first heading, a wrapping code
 * fence and sections of other titles are left out; a required section missing or empty throws MalformedAnswer.
 */
export function parseSections(answer: string): ReportSection[] {
  const text = answer.trim().replace(/^```[a-z]*\n([\s\S]*?)\n```$/i, "$1");
  const found = new Map<SectionKey, string[]>();
  let current: string[] | null = null;
  for (const line of text.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      const section = BY_TITLE.get(normalize(heading[1]!));
      current = section && !found.has(section.key) ? [] : null;
      if (section && current) found.set(section.key, current);
      continue;
    }
    current?.push(line);
  }
  const sections = SECTIONS.map((s) => ({
    key: s.key,
    title: s.title,
    text: plainText((found.get(s.key) ?? []).join("\n")),
  }));
  const missing = sections.filter((s) => !s.text).map((s) => s.title);
  if (missing.length)
    throw new MalformedAnswer(
      "malformed_answer",
      `the answer lacks the sections ${missing.map((t) => `"${t}"`).join(", ")}`,
    );
  return sections;
}

/** Parses and checks a model's answer against the inputs it was given. */
export function checkAnswer(answer: string, inputs: AnalysisInputs, maxChars: number): ReportSection[] {
  if (answer.length > maxChars)
    throw new MalformedAnswer(
      "malformed_answer",
      `the answer is ${answer.length} characters long (at most ${maxChars})`,
    );
  const sections = parseSections(answer);
  const report = renderReport(sections);
  const advice = adviceIn(report);
  if (advice)
    throw new MalformedAnswer(
      "trading_advice",
      `the answer claims certain returns or tells the reader to trade: "${advice}"`,
    );
  const unsupported = unsupportedFigures(report, inputs);
  if (unsupported.length)
    throw new MalformedAnswer(
      "unsupported_figure",
      `the answer quotes figures that are not among the inputs: ${unsupported.slice(0, 5).join(", ")}`,
    );
  return sections;
}
