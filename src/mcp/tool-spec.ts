/**
 * What the catalog writes of a tool: its name, the question it answers, the route it reads and how its answer is
 * summed up in words an agent can quote. Everything else (the input and output schemas, whether it is Premium) is
 * read from the OpenAPI document (route-shapes.ts).
 */
import type { Answer, ListField, PathsWith } from "@pelagic/client";

export type ToolArgs = Readonly<Record<string, unknown>>;

export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  /** The question the tool answers: the first words of its description. */
  readonly purpose: string;
  /** The GET route it reads, as the OpenAPI document writes it. */
  readonly route: string;
  /** The field of the answer that holds its list, when it has one (counted for the paging note). */
  readonly list?: string;
  /** A few lines an agent can quote; the answer itself is the structured content beside them. */
  summarize(body: unknown, args: ToolArgs): string;
}

type Body<P extends PathsWith<"get">> = Answer<P> extends readonly (infer I)[] ? readonly I[] : Answer<P>;

/** A tool over GET `route`, its summary typed by the route's answer. */
export function tool<P extends PathsWith<"get">>(spec: {
  name: string;
  title: string;
  purpose: string;
  route: P;
  list?: ListField<Answer<P>>;
  summarize(body: Body<P>, args: ToolArgs): string;
}): ToolSpec {
  return spec as unknown as ToolSpec;
}
