import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { HTTP_STATUS_OF_CODE } from "../src/api/errors.js";
import { describeSettings } from "../src/config/index.js";
import { ERROR_CODES, type ErrorCode } from "../src/errors/index.js";
import { anchorOf } from "../src/mcp/resources.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const readme = read("README.md");

describe("README", () => {
  it("documents every setting with its default", () => {
    for (const s of describeSettings()) expect(readme).toContain(`| \`${s.env}\` | \`${s.defaultText}\` |`);
  });

  it("states a Node range that every installed dependency supports (npm warns EBADENGINE otherwise)", () => {
    const range = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
    const oldest = semver.minVersion(range)!.version;
    expect(readme).toContain(`Node ${semver.major(oldest)} (≥ ${semver.major(oldest)}.${semver.minor(oldest)})`);
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([path]) => path !== "" && existsSync(join(root, path)))
      .flatMap(([path, { engines }]) => {
        const wanted = engines && !Array.isArray(engines) ? engines.node : undefined;
        return wanted && !semver.satisfies(oldest, wanted) ? [`${path} wants node ${wanted}`] : [];
      });
    expect(refused).toEqual([]);
  });

  it("closes every code fence (an unclosed one renders the rest of the page as code)", () => {
    const unclosed: string[] = [];
    for (const file of filesUnder(["README.md", "DEVELOPERS.md", "docs"]).filter((f) => f.endsWith(".md"))) {
      let openedAt = 0;
      read(file)
        .split("\n")
        .forEach((line, i) => {
          const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
          if (!fence) return;
          // A closing fence carries no info string: one with a language opens a block inside an open one.
          if (openedAt === 0) openedAt = i + 1;
          else if (fence[2]!.trim() === "") openedAt = 0;
          else unclosed.push(`${file}:${openedAt}`);
        });
      if (openedAt !== 0) unclosed.push(`${file}:${openedAt}`);
    }
    expect(unclosed).toEqual([]);
  });

  it("gives the two quick-start commands", () => {
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm install && npm test");
  });
});

/**
 * The repository stands on its own: no file names a path outside it (the spec, design and data folders that sit
 * beside the repository in the development set-up). Written as pieces so that this file does not match itself.
 */
const OUTSIDE_PATH = new RegExp(
  [
    "\\.\\./" + "shared",
    "shared" + "/(spec|design|data)",
    "(^|[^A-Za-z])(domain|venue|isw|service-spec)" + "\\.md",
  ].join("|"),
);

/** Every file under the given repository paths (files or folders). */
function filesUnder(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (path: string) => {
    const full = join(root, path);
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full)) if (entry !== "node_modules") walk(join(path, entry));
    } else {
      out.push(relative(root, full).split("\\").join("/"));
    }
  };
  for (const path of paths) walk(path);
  return out.sort();
}

/** Every document: the READMEs of the root and of every folder, DEVELOPERS.md, docs/*.md and bench/HISTORY.md. */
function everyDoc(): string[] {
  const folders = ["src", "test", "bench", "bin", "web", "docs"].filter((path) => existsSync(join(root, path)));
  const files = filesUnder(folders).filter((file) => !file.startsWith("web/dist/"));
  const docs = files.filter((file) => file.endsWith("README.md") || /^docs\/[^/]+\.md$/.test(file));
  return [...new Set(["README.md", "DEVELOPERS.md", ...docs, "bench/HISTORY.md"])].sort();
}

describe("self-contained repository", () => {
  const files = filesUnder(["README.md", "DEVELOPERS.md", "docs", "src", "test", "bench"]);

  it("names no path outside the repository", () => {
    const offenders = files.filter((file) => OUTSIDE_PATH.test(read(file)));
    expect(offenders).toEqual([]);
  });
});

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]!));
  }
  return anchors;
}

describe("docs", () => {
  const metrics = read("docs/METRICS.md");

  it("links only to headings that exist", () => {
    const broken: string[] = [];
    for (const doc of everyDoc()) {
      const text = read(doc);
      for (const [, target, anchor] of text.matchAll(/\]\(([A-Za-z0-9_./-]*?)#([^)\s]+)\)/g)) {
        const file = target === "" ? doc : join(doc, "..", target!).split("\\").join("/");
        if (!existsSync(join(root, file)) || !anchorsOf(read(file)).has(anchor!))
          broken.push(`${doc}: ${target}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("names only repository files that exist, in every doc (paths in backticks, and link targets)", () => {
    const missing = everyDoc().flatMap((doc) => {
      const text = read(doc);
      const named = [...text.matchAll(/`((?:src|test|bench|docs|web|bin)\/[A-Za-z0-9_./-]+)`/g)].map((m) => m[1]!);
      const linked = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) => join(doc, "..", target).split("\\").join("/"));
      // A folder's README may name its own files from the folder (web/README.md: `src/main.tsx`).
      const exists = (path: string) =>
        existsSync(join(root, path)) ||
        (doc.includes("/") && !doc.startsWith("docs/") && existsSync(join(root, doc, "..", path)));
      return [...named, ...linked].filter((path) => !exists(path)).map((path) => `${doc}: ${path}`);
    });
    expect(missing).toEqual([]);
  });

  it("quotes of docs/decisions.md in code and docs name a heading it has", () => {
    const headings = new Set(
      read("docs/decisions.md")
        .split("\n")
        .flatMap((line) => {
          const heading = /^#{1,6} (.+)$/.exec(line);
          return heading ? [heading[1]!.trim()] : [];
        }),
    );
    const quoting = filesUnder(["src", "test", "bench", "bin", "web/src", "vitest.config.ts", ...everyDoc()]).filter(
      (file) => /\.(ts|tsx|js|mjs|md)$/.test(file) && file !== "docs/decisions.md",
    );
    const unknown = quoting.flatMap((file) =>
      [...read(file).matchAll(/docs\/decisions\.md(?:,\s*|\s*\(\s*|\s+)"([^"]+)"/g)]
        .map((m) => m[1]!.replace(/\s+/g, " "))
        .filter((title) => !headings.has(title))
        .map((title) => `${file}: "${title}"`),
    );
    expect(unknown).toEqual([]);
  });

  it("METRICS.md gives every metric threshold with its default", () => {
    const groups = ["ledger.", "farmer.", "smart.", "whales.", "insights.", "boards.", "derive."];
    const others = [
      "markets.qualityMinVolume",
      "markets.qualityPriceMin",
      "markets.qualityPriceMax",
      "markets.detailCacheSeconds",
      "wallet.overviewCacheSeconds",
      "wallet.degradedInFlightRequests",
      "wallet.degradedEventLoopDelayMs",
      "ingest.walletSyncFreshSeconds",
      "ingest.walletMaxClosedPositions",
    ];
    const thresholds = describeSettings().filter(
      (s) => groups.some((g) => s.path.startsWith(g)) || others.includes(s.path),
    );
    expect(thresholds.length).toBeGreaterThan(40);
    for (const s of thresholds) expect(metrics).toContain(`| \`${s.env}\` | \`${s.defaultText}\` |`);
  });
});

describe("docs/ERRORS.md", () => {
  const rows = new Map(
    read("docs/ERRORS.md")
      .split("\n")
      .flatMap((line) => {
        const cells = /^\| `([A-Z_]+)` \| ([^|]+) \|/.exec(line);
        return cells ? [[cells[1]!, cells[2]!.trim()] as const] : [];
      }),
  );

  it("lists every error code with the status the HTTP layer answers it with, and no code that does not exist", () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const status = code === "HTTP_ERROR" ? "its own" : String(HTTP_STATUS_OF_CODE[code] ?? "—");
      expect(rows.get(code), `docs/ERRORS.md: ${code}`).toBe(status);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("is the whole tree: every error class of src/ derives from PelagicError (the simulated venue's replies aside)", () => {
    const sources = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")
            ? [join(dir, entry.name)]
            : [],
      );
    const plain = sources("src")
      .filter((file) => !file.startsWith(join("src", "sim", "servers")) && file !== join("src", "errors", "index.ts"))
      .flatMap((file) =>
        [...read(file).matchAll(/class (\w+) extends (?:Error|TypeError|RangeError)\b/g)].map(
          (m) => `${file}: ${m[1]}`,
        ),
      );
    expect(plain).toEqual([]);
  });
});
