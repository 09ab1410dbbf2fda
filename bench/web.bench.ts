/**
 * The web dashboard's first render (`npm run bench web`; goal: the largest page under 1 s on the demo). Starts the
 * service on the browser test's simulated world (test/support/dashboard-world.ts), opens each page in Chromium
 * (test/support/browser.ts) at 1,440 and 375 px and prints, per page and width, the median over BENCH_WEB_RUNS
 * loads (default 3) of:
 * - first contentful paint;
 * - main content: the page's main part rendered with its data (the selector each page shows once its answer is in);
 * - all sections: no section still loading;
 * - bytes transferred until the main content (page, assets and API answers, headers included);
 * cold (the browser's cache emptied before each load) and warm (the same page loaded again, assets from the cache).
 * Before them, each page's very first load: the service's own caches cold too. Serves web/dist as built
 * (`npm run build:web` first). It prints figures; it asserts no time.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { launchBrowser, noBrowserReason } from "../test/support/browser.js";
import { openDashboardWorld, type DashboardWorld } from "../test/support/dashboard-world.js";

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const WIDTHS = [1440, 375] as const;

interface Load {
  fcp: number;
  main: number;
  all: number;
  bytes: number;
}

async function pagesOf(world: DashboardWorld): Promise<Array<{ name: string; hash: string; main: string }>> {
  const board = await world.get<{ whales: Array<{ wallet: string }> }>("/api/v2/whales/leaderboard?limit=1");
  const wallet = board.whales[0]!.wallet;
  const held = await world.get<{ positions: Array<{ market_id: string }> }>(
    `/api/v2/wallet/${wallet}/positions?limit=1`,
  );
  const market = held.positions[0]!.market_id;
  return [
    { name: "home", hash: "#/", main: "[data-section=hot-markets] tbody tr" },
    { name: "leaderboards", hash: "#/leaderboards", main: "[data-section=board] tbody tr" },
    { name: "wallet", hash: `#/wallet/${wallet}`, main: "[data-testid=wallet-stats]" },
    { name: "market", hash: `#/market/${market}`, main: "[data-testid=consensus]" },
    { name: "whale alerts", hash: "#/premium", main: "[data-testid=alert-summary]" },
    { name: "territory", hash: "#/territory", main: "[data-testid=territory-map] [data-layer]" },
  ];
}

/** Times in ms from the navigation's start, read in the page (polled each frame, so within a frame). */
async function load(page: Page, url: string, main: string, cold: boolean): Promise<Load> {
  await page.goto("about:blank");
  if (cold) await (await page.context().newCDPSession(page)).send("Network.clearBrowserCache");
  await page.goto(url);
  const at = async (ready: string) =>
    (
      await page.waitForFunction(`(${ready}) ? performance.now() : 0`, null, { polling: "raf", timeout: 30_000 })
    ).jsonValue() as Promise<number>;
  const mainAt = await at(`document.querySelector(${JSON.stringify(main)})`);
  const bytes = await page.evaluate<number>(
    '[...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]' +
      ".reduce((sum, entry) => sum + entry.transferSize, 0)",
  );
  const allAt = await at('document.querySelectorAll("[aria-busy=true]").length === 0');
  const fcp = await page.evaluate<number>(
    'performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN',
  );
  return { fcp, main: mainAt, all: allAt, bytes };
}

function median(loads: Load[]): Load {
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    fcp: mid(loads.map((l) => l.fcp)),
    main: mid(loads.map((l) => l.main)),
    all: mid(loads.map((l) => l.all)),
    bytes: mid(loads.map((l) => l.bytes)),
  };
}

const row = (cells: Array<string | number>) =>
  cells
    .map((c, i) => (typeof c === "number" ? String(Math.round(c)).padStart(9) : c.padEnd(i === 0 ? 14 : 8)))
    .join(" ");

async function main(): Promise<void> {
  const skip = noBrowserReason();
  if (skip) {
    console.log(skip);
    return;
  }
  if (!existsSync(fileURLToPath(new URL("../web/dist/index.html", import.meta.url)))) {
    console.log("web/dist is not built: run `npm run build:web` first");
    process.exitCode = 1;
    return;
  }
  const started = Date.now();
  const [world, browser] = await Promise.all([openDashboardWorld(), launchBrowser()]);
  console.log(`world ready in ${((Date.now() - started) / 1000).toFixed(0)} s; ${RUNS} loads per figure (median)`);
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    // The Premium page's sections need a key: the browser keeps it, as a user's would.
    await page.goto(world.url);
    await page.evaluate(`localStorage.setItem("pelagic.apiKey", ${JSON.stringify(world.premiumKey)})`);
    const pages = await pagesOf(world);
    console.log(row(["page", "width", "load", "FCP ms", "main ms", "all ms", "bytes"]));
    for (const { name, hash, main } of pages) {
      const url = `${world.url}/${hash}`;
      await page.setViewportSize({ width: 1440, height: 900 });
      const first = await load(page, url, main, true);
      console.log(row([name, "1440", "first", first.fcp, first.main, first.all, first.bytes]));
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        for (const cold of [true, false]) {
          const loads: Load[] = [];
          for (let run = 0; run < RUNS; run++) loads.push(await load(page, url, main, cold));
          const m = median(loads);
          console.log(row([name, String(width), cold ? "cold" : "warm", m.fcp, m.main, m.all, m.bytes]));
        }
      }
    }
  } finally {
    await browser.close();
    await world.close();
  }
}

await main();
