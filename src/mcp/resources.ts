/**
 * The MCP server's resources: the stable things an agent reads rather than asks. The metric definitions
 * (docs/METRICS.md, whole and by section, so that an agent reads only the part it needs), and two templates read
 * from the API: a wallet (its overview) and a market (its page with the whale consensus).
 */
import { readFileSync } from "node:fs";
import { packagePath } from "../package.js";

export const METRICS_URI = "pelagic://metrics";

export interface ResourceTemplateSpec {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The route it reads, and its one path parameter, named as in the URI template. */
  readonly route: string;
  readonly variable: string;
}

export const RESOURCE_TEMPLATES: readonly ResourceTemplateSpec[] = [
  {
    uriTemplate: "pelagic://wallet/{address}",
    name: "wallet",
    title: "A wallet",
    description: "A wallet's profile and statistics (the overview, as GET /api/v2/wallet/{address}/overview answers)",
    route: "/api/v2/wallet/{address}/overview",
    variable: "address",
  },
  {
    uriTemplate: "pelagic://market/{market_id}",
    name: "market",
    title: "A market",
    description: "A market's prices, whale consensus and top traders (as GET /api/v2/market/{market_id} answers)",
    route: "/api/v2/market/{market_id}",
    variable: "market_id",
  },
];

export interface MetricsSection {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly text: string;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

let metrics: { whole: string; sections: MetricsSection[] } | undefined;

/** docs/METRICS.md, read once: the whole text and each `##` section but the contents. */
export function metricDefinitions(): { whole: string; sections: readonly MetricsSection[] } {
  if (metrics) return metrics;
  const whole = readFileSync(packagePath("docs", "METRICS.md"), "utf8");
  const sections: MetricsSection[] = [];
  for (const part of whole.split(/^(?=## )/m).slice(1)) {
    const title = part.slice(3, part.indexOf("\n")).trim();
    if (title === "Contents") continue;
    const name = anchorOf(title);
    sections.push({ uri: `${METRICS_URI}/${name}`, name, title, text: part.trimEnd() });
  }
  metrics = { whole, sections };
  return metrics;
}

/** The template and variable value a URI names, if any. */
export function templateOf(uri: string): { template: ResourceTemplateSpec; value: string } | undefined {
  for (const template of RESOURCE_TEMPLATES) {
    const prefix = template.uriTemplate.slice(0, template.uriTemplate.indexOf("{"));
    if (uri.startsWith(prefix) && uri.length > prefix.length && !uri.slice(prefix.length).includes("/"))
      return { template, value: decodeURIComponent(uri.slice(prefix.length)) };
  }
  return undefined;
}
