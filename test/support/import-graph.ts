/**
 * Pelagic's layers (the one place they are defined; docs/ARCHITECTURE.md shows `layerTable()`), and the checks
 * test/layout.test.ts runs over the import graph of src/. A layer is a folder of src/, or a file at its top.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

export interface Layer {
  readonly name: string;
  /** The layers its files may import, all of them earlier in LAYERS. */
  readonly mayImport: readonly string[];
  /** No I/O: its files import nothing that runs (type-only imports aside) that reaches a package or a Node built-in. */
  readonly pure?: boolean;
  readonly what: string;
}

/** Lowest first: a layer imports only layers listed before it, and never one beside it that it does not name. */
export const LAYERS: readonly Layer[] = [
  { name: "errors", mayImport: [], pure: true, what: "the error tree: PelagicError and every error code" },
  { name: "config", mayImport: ["errors"], what: "settings and thresholds" },
  {
    name: "package",
    mayImport: ["errors"],
    what: "the package itself: its version, its root and the files it ships, from source or from the bundle",
  },
  {
    name: "platform",
    mayImport: ["errors", "config", "package"],
    what: "cache, presence, pub/sub, rate limits, clock, logger: memory or Redis",
  },
  {
    name: "store",
    mayImport: ["errors", "config", "platform"],
    what: "tables, migrations and the SQL plumbing: SQLite or PostgreSQL",
  },
  {
    name: "kept",
    mayImport: ["errors", "config", "platform", "store"],
    what: "answers and copies kept in memory, named by how each is invalidated: time, stamp, clock window, generation, reload",
  },
  {
    name: "venue",
    mayImport: ["errors", "config", "package", "platform"],
    what: "the venue's clients and payload shapes, and its vocabulary (units, categories, contracts)",
  },
  {
    name: "ledger",
    mayImport: ["errors", "config", "venue"],
    pure: true,
    what: "positions, P&L and the rule of every metric, on domain records (no I/O)",
  },
  { name: "accounts", mayImport: ["errors", "config", "store"], what: "API keys, plans and their limits" },
  {
    name: "ingest",
    mayImport: ["errors", "config", "platform", "store", "venue"],
    what: "the pipelines that copy the venue into the store",
  },
  {
    name: "derive",
    mayImport: ["errors", "config", "platform", "store", "venue", "ledger"],
    what: "runs the ledger over the stored events and writes the derived tables",
  },
  {
    name: "isw",
    mayImport: ["errors", "config", "platform", "store", "venue"],
    what: "the territory monitor: probes of the war map's layers, geometry, threat levels, events, webhooks",
  },
  {
    name: "analytics",
    mayImport: ["errors", "config", "platform", "store", "kept", "venue", "ledger", "isw"],
    what: "read models: what the routes answer, from the stored tables",
  },
  {
    name: "alerts",
    mayImport: ["errors", "config", "platform", "store", "venue", "isw"],
    what: "the alerts accounts define: rules and destinations, the matcher over stored fills, the delivery queue and its formatters",
  },
  {
    name: "ai",
    mayImport: ["errors", "config", "package", "platform", "store", "venue", "ledger", "analytics"],
    what: "AI analyses of wallets: the queue, the writers (a model, or rules), the prompt, from the read models' figures",
  },
  {
    name: "live",
    mayImport: ["errors", "config", "platform", "store", "venue", "ingest"],
    what: "the live trade streams: the relay that labels the feed once, the hub that fans it out to subscribers",
  },
  {
    name: "mcp",
    mayImport: ["errors", "config", "package"],
    what: "the MCP server: tools, resources and prompts over the API's routes, called in-process or through the typed client",
  },
  {
    name: "api",
    mayImport: [
      "errors",
      "config",
      "package",
      "platform",
      "store",
      "kept",
      "venue",
      "ledger",
      "accounts",
      "analytics",
      "ai",
      "live",
      "isw",
      "alerts",
      "mcp",
    ],
    what: "the HTTP routes",
  },
  {
    name: "sim",
    mayImport: ["errors", "config", "package", "platform", "venue", "ledger"],
    what: "the simulated venue (imported by tests, benches and commands only)",
  },
  {
    name: "runtime",
    mayImport: [
      "errors",
      "config",
      "package",
      "platform",
      "store",
      "venue",
      "ingest",
      "derive",
      "analytics",
      "live",
      "isw",
      "alerts",
      "api",
    ],
    what: "the composition root: the store, the service's start and stop, the window aggregates' thread",
  },
  {
    name: "commands",
    mayImport: [
      "errors",
      "config",
      "package",
      "platform",
      "store",
      "venue",
      "ledger",
      "accounts",
      "ingest",
      "derive",
      "analytics",
      "ai",
      "live",
      "isw",
      "alerts",
      "mcp",
      "api",
      "sim",
      "runtime",
    ],
    what: "the command line",
  },
];

export interface Import {
  /** Relative to src/, as `.ts`. */
  readonly from: string;
  /** A file relative to src/ (as `.ts`), or a package or Node built-in as written. */
  readonly to: string;
  readonly external: boolean;
  readonly typeOnly: boolean;
  readonly reexport: boolean;
}

const STATEMENT =
  /\b(import|export)(\s+type\b)?\s*(?:[\w*{][^;"'`]*?\s+from\s*)?["']([^"'\n]+)["']|\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

/** The imports of one file (`from`, relative to src/): static, re-exported and dynamic. */
export function importsOf(from: string, text: string): Import[] {
  return [...text.matchAll(STATEMENT)].map((m) => {
    const specifier = (m[3] ?? m[4]) as string;
    const external = !specifier.startsWith(".");
    const to = external
      ? specifier
      : normalize(join(dirname(from), specifier.replace(/\.js$/, ".ts")))
          .split("\\")
          .join("/");
    return { from, to, external, typeOnly: m[2] !== undefined, reexport: m[1] === "export" };
  });
}

/** Tests and the helpers beside them (`testing/` folders) may also import test/ and the simulated venue. */
export const isTestCode = (file: string): boolean => file.endsWith(".test.ts") || file.split("/").includes("testing");

export const layerOf = (file: string): string =>
  file.includes("/") ? file.slice(0, file.indexOf("/")) : file.replace(/\.ts$/, "");

/** The TypeScript files under `root` (src/), relative to it, tests and test helpers included. */
export const sourceFiles = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => file.split("\\").join("/"));

/** Every import of the TypeScript files under `root` (src/). */
export const sourceImports = (root: string): Import[] =>
  sourceFiles(root).flatMap((file) => importsOf(file, readFileSync(join(root, file), "utf8")));

/** Files in circles (strongly connected components of more than one file, or a file importing itself). */
export function circles(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to, external } of imports) if (!external) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * The simulated venue's ground truth (what an ingest must hold; the informed layer's insiders and decoys): only the
 * simulation and tests may read it, so that no signal of Pelagic's can lean on it.
 */
export const GROUND_TRUTH_MODULES: readonly string[] = ["sim/servers/ground-truth.ts", "sim/servers/informed-truth.ts"];
/** The path under which the simulated venue serves the informed layer's ground truth. */
export const GROUND_TRUTH_PATH = "/truth/";

/** Files (relative to src/, with their text) outside src/sim/ and tests that import the ground truth or name its path. */
export function groundTruthProblems(files: readonly { file: string; text: string }[]): string[] {
  const problems: string[] = [];
  for (const { file, text } of files) {
    if (file.startsWith("sim/") || isTestCode(file)) continue;
    for (const i of importsOf(file, text))
      if (GROUND_TRUTH_MODULES.includes(i.to)) problems.push(`${file} imports the ground truth ${i.to}`);
    if (text.includes(GROUND_TRUTH_PATH)) problems.push(`${file} names the ground truth's path ${GROUND_TRUTH_PATH}`);
  }
  return problems;
}

/** Each problem of the import graph against the layers, as a line; none when the layout holds. */
export function layoutProblems(imports: readonly Import[], layers: readonly Layer[] = LAYERS): string[] {
  const byName = new Map(layers.map((layer, rank) => [layer.name, { ...layer, rank }]));
  const problems: string[] = [];
  for (const layer of layers) {
    for (const lower of layer.mayImport) {
      if (!((byName.get(lower)?.rank ?? Infinity) < byName.get(layer.name)!.rank))
        problems.push(`layer ${layer.name} may import ${lower}, which is not listed before it`);
    }
  }
  const code = imports.filter((i) => !isTestCode(i.from));
  for (const i of code) {
    const from = layerOf(i.from);
    const layer = byName.get(from);
    if (!layer) {
      problems.push(`${i.from} is in no layer`);
      continue;
    }
    if (i.external) continue;
    const to = layerOf(i.to);
    if (isTestCode(i.to) || i.to.startsWith("../")) problems.push(`${i.from} imports test code ${i.to}`);
    else if (to !== from && !layer.mayImport.includes(to))
      problems.push(`${i.from} imports ${i.to}: ${from} may not import ${to}`);
    else if (to !== from && i.reexport)
      problems.push(`${i.from} re-exports ${i.to}: a layer exports only its own files`);
  }
  problems.push(...impureImports(code, byName));
  for (const circle of circles(code)) problems.push(`circle: ${circle.join(" -> ")}`);
  return [...new Set(problems)];
}

/** What a pure layer's files reach through imports that run: no package, no Node built-in. */
function impureImports(code: readonly Import[], byName: ReadonlyMap<string, Layer>): string[] {
  const running = new Map<string, Import[]>();
  for (const i of code) if (!i.typeOnly) running.set(i.from, [...(running.get(i.from) ?? []), i]);
  const problems: string[] = [];
  for (const file of running.keys()) {
    if (!byName.get(layerOf(file))?.pure) continue;
    const seen = new Set([file]);
    const walk = (at: string, via: string[]): void => {
      for (const i of running.get(at) ?? []) {
        if (i.external)
          problems.push(`${file} is pure but reaches ${i.to}${via.length ? ` through ${via.join(", ")}` : ""}`);
        else if (!seen.has(i.to)) {
          seen.add(i.to);
          walk(i.to, [...via, i.to]);
        }
      }
    };
    walk(file, []);
  }
  return problems;
}

/** The layers as the markdown table docs/ARCHITECTURE.md shows. */
export function layerTable(layers: readonly Layer[] = LAYERS): string {
  const rows = layers.map(
    (l) =>
      `| \`${l.name}\` | ${l.mayImport.length ? l.mayImport.map((n) => `\`${n}\``).join(", ") : "nothing"} | ${l.pure ? "pure: " : ""}${l.what} |`,
  );
  return ["| layer (lowest first) | may import | what |", "|---|---|---|", ...rows].join("\n");
}
