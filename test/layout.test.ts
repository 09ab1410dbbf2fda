import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES } from "../src/commands/index.js";
import {
  LAYERS,
  groundTruthProblems,
  importsOf,
  layerOf,
  layerTable,
  layoutProblems,
  sourceFiles,
  sourceImports,
  type Import,
} from "./support/import-graph.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const imports = sourceImports(SRC);

/** A synthetic graph: each file's source text, as the checker reads it. */
const graph = (files: Record<string, string>): Import[] =>
  Object.entries(files).flatMap(([file, text]) => importsOf(file, text));

describe("source layout (issue 22)", () => {
  it("has one file per command in src/commands/", () => {
    for (const name of COMMAND_NAMES) expect(existsSync(join(SRC, "commands", `${name}.ts`)), name).toBe(true);
  });

  it("lets only the dispatcher import a command, and nothing import a server module", () => {
    const commandFiles = new Set(COMMAND_NAMES.map((name) => `commands/${name}.ts`));
    const offending = imports
      .filter(
        (i) =>
          !i.from.endsWith(".test.ts") &&
          ((commandFiles.has(i.to) && i.from !== "commands/index.ts") || /(^|\/)server\.ts$/.test(i.to)),
      )
      .map((i) => `${i.from} imports ${i.to}`);
    expect(offending).toEqual([]);
  });

  it("puts every folder of src/ in a layer", () => {
    const named = new Set(LAYERS.map((l) => l.name));
    expect(sourceFiles(SRC).filter((file) => !named.has(layerOf(file)))).toEqual([]);
  });

  it("imports only down the layers, without circles, and keeps the ledger pure", () => {
    expect(layoutProblems(imports)).toEqual([]);
  });

  it("keeps the routes to HTTP: they never touch the store's tables or call the venue (the read side does)", () => {
    const vocabulary = new Set(["venue/categories.ts", "venue/contracts.ts", "venue/units.ts"]);
    const routes = sourceFiles(SRC).filter(
      (file) => file.startsWith("api/") && !file.endsWith(".test.ts") && file !== "api/gate.ts",
    );
    const touching = routes.filter((file) =>
      /\bstore\.db\b|\.selectFrom\(|\.updateTable\(|\.insertInto\(/.test(readFileSync(join(SRC, file), "utf8")),
    );
    const calling = imports
      .filter((i) => routes.includes(i.from) && i.to.startsWith("venue/") && !vocabulary.has(i.to))
      .map((i) => `${i.from} imports ${i.to}`);
    expect({ touching, calling }).toEqual({ touching: [], calling: [] });
  });

  it("keeps a route family's schemas in its *-schemas.ts files, never inline in a route", () => {
    const inline = sourceFiles(SRC).filter(
      (file) =>
        file.startsWith("api/routes/") &&
        !file.endsWith("-schemas.ts") &&
        readFileSync(join(SRC, file), "utf8").includes("Type.Object("),
    );
    expect(inline).toEqual([]);
  });

  it("keeps the simulated venue's ground truth from Pelagic: only src/sim/ and tests import it or name /truth/", () => {
    const files = sourceFiles(SRC).map((file) => ({ file, text: readFileSync(join(SRC, file), "utf8") }));
    // Code outside src/ that ships or runs Pelagic (its command, client and dashboard) is held to the same rule.
    const ROOT = join(SRC, "..");
    for (const folder of ["bin", "client/src", "web/src"]) {
      if (!existsSync(join(ROOT, folder))) continue;
      for (const file of readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" }))
        if (/\.(ts|tsx|js|mjs)$/.test(file) && !file.includes("node_modules"))
          files.push({ file: `../${folder}/${file}`, text: readFileSync(join(ROOT, folder, file), "utf8") });
    }
    expect(files.length).toBeGreaterThan(500);
    expect(groundTruthProblems(files)).toEqual([]);
  });

  it("shows the layers in docs/ARCHITECTURE.md as they are defined", () => {
    const table = layerTable();
    expect(
      readFileSync(join(SRC, "../docs/ARCHITECTURE.md"), "utf8").includes(table),
      `docs/ARCHITECTURE.md should show the layers as\n${table}`,
    ).toBe(true);
  });
});

describe("the import checker", () => {
  it("reads static, type-only, re-exported and dynamic imports", () => {
    const text = [
      'import { a, type B } from "../ledger/index.js";',
      'import type {\n  C,\n  D,\n} from "./c.js";',
      'export { e } from "../store/e.js";',
      'import * as f from "node:fs";',
      'const g = await import("./g.js");',
      'const h = `read from "./not-an-import.js"`;',
    ].join("\n");
    expect(importsOf("derive/x.ts", text).map((i) => [i.to, i.typeOnly, i.reexport, i.external])).toEqual([
      ["ledger/index.ts", false, false, false],
      ["derive/c.ts", true, false, false],
      ["store/e.ts", false, true, false],
      ["node:fs", false, false, true],
      ["derive/g.ts", false, false, false],
    ]);
  });

  it("fails on each back arrow issue 22 found, on a re-exported lower layer, on test code and on a circle", () => {
    const problems = layoutProblems(
      graph({
        "analytics/leaderboard.ts":
          'import { queryRows } from "../derive/raw-sql.js";\nimport { BOARD_WINDOW_DAYS } from "../derive/recent-volumes.js";',
        "analytics/movers.ts": 'import { Ingest } from "../ingest/index.js";',
        "api/routes/site.ts": 'import { rebuild } from "../../derive/rebuild.js";',
        "ledger/types.ts": 'import type { Direction } from "../store/schema.js";',
        "ingest/index.ts": 'export { storeChecksum } from "../store/checksum.js";',
        "store/fills.ts": 'import { chainKey } from "../ingest/chain-rows.js";',
        "derive/rebuild.ts": 'import { loadWorld } from "./testing/stored-world.js";',
        "venue/gamma.ts": 'import { SimErrorReply } from "../sim/servers/http.js";',
        "derive/a.ts": 'import { b } from "./b.js";',
        "derive/b.ts": 'import type { A } from "./a.js";',
        "ledger/state.ts": 'import { readFileSync } from "node:fs";',
        "ledger/categories.ts": 'import { CATEGORIES } from "../venue/categories.js";',
        "ledger/skill.ts": 'import { getJson } from "../venue/http.js";',
        "venue/http.ts": 'import { request } from "undici";',
        "venue/categories.ts": "export const CATEGORIES = [];",
        "sim/servers/index.ts": 'import { MICRO } from "../../venue/units.js";',
        "reports/weekly.ts": 'import { Store } from "../store/database.js";',
      }),
    );
    expect(problems).toEqual([
      "analytics/leaderboard.ts imports derive/raw-sql.ts: analytics may not import derive",
      "analytics/leaderboard.ts imports derive/recent-volumes.ts: analytics may not import derive",
      "analytics/movers.ts imports ingest/index.ts: analytics may not import ingest",
      "api/routes/site.ts imports derive/rebuild.ts: api may not import derive",
      "ledger/types.ts imports store/schema.ts: ledger may not import store",
      "ingest/index.ts re-exports store/checksum.ts: a layer exports only its own files",
      "store/fills.ts imports ingest/chain-rows.ts: store may not import ingest",
      "derive/rebuild.ts imports test code derive/testing/stored-world.ts",
      "venue/gamma.ts imports sim/servers/http.ts: venue may not import sim",
      "reports/weekly.ts is in no layer",
      "ledger/state.ts is pure but reaches node:fs",
      "ledger/skill.ts is pure but reaches undici through venue/http.ts",
      "circle: derive/a.ts -> derive/b.ts",
    ]);
  });

  it("fails a file outside src/sim/ and tests that imports the ground truth or names its path", () => {
    const files = Object.entries({
      "analytics/insiders.ts": 'import { truthArchetypes } from "../sim/servers/informed-truth.js";',
      "commands/score.ts": 'const url = base + "/truth/archetypes";',
      "ingest/check.ts": 'export { truthFills } from "../sim/servers/ground-truth.js";',
      "sim/servers/index.ts": 'import { truthHandler } from "./informed-truth.js";\nconst p = "/truth/";',
      "analytics/insiders.test.ts": 'const url = "/truth/archetypes";',
      "ingest/testing/sim-truth.ts": 'import { truthFills } from "../../sim/servers/ground-truth.js";',
      "../bin/score.js": 'fetch("http://127.0.0.1:8090/truth/hubs")',
      "api/routes/truth.ts": 'const word = "truthful";',
    }).map(([file, text]) => ({ file, text }));
    expect(groundTruthProblems(files)).toEqual([
      "analytics/insiders.ts imports the ground truth sim/servers/informed-truth.ts",
      "commands/score.ts names the ground truth's path /truth/",
      "ingest/check.ts imports the ground truth sim/servers/ground-truth.ts",
      "../bin/score.js names the ground truth's path /truth/",
    ]);
  });

  it("refuses a layer table that is not an order", () => {
    const layers = [
      { name: "store", mayImport: ["ledger"], what: "" },
      { name: "ledger", mayImport: [], what: "" },
    ];
    expect(layoutProblems([], layers)).toEqual(["layer store may import ledger, which is not listed before it"]);
  });
});
