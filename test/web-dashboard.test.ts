/**
 * The web dashboard in a real browser (Chromium through playwright-core) on the simulated demo world: each page
 * shows what the API answers, the click path leaderboard → wallet → market works, and each page is photographed at
 * 1,440 and 375 px into docs/screenshots/. Skipped, saying why, only where no Chromium is installed.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, noBrowserReason, type Browser } from "./support/browser.js";
import { openDashboardWorld, type DashboardWorld } from "./support/dashboard-world.js";

const SCREENSHOTS = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));
const WIDTHS = [1440, 375] as const;
const skipReason = noBrowserReason();
if (skipReason) console.warn(skipReason);

describe.skipIf(skipReason !== null)("the web dashboard in Chromium", () => {
  let world: DashboardWorld;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [world, browser] = await Promise.all([openDashboardWorld(), launchBrowser()]);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  /** Opens a page of the dashboard and waits until no section is still loading. */
  async function open(hash: string): Promise<void> {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${world.url}/${hash}`);
    await page.waitForSelector(`main[data-page]`);
    await page.waitForFunction('document.querySelectorAll("[aria-busy=true]").length === 0', null, { timeout: 20_000 });
  }

  async function photograph(name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      // At 375 px nothing may stick out sideways but the tables, which scroll in their own frame.
      const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: true });
    }
  }

  const texts = (selector: string) => page.locator(selector).allInnerTexts();

  it("home: hot markets, whale moves, top whales and category rotation as the API answers them", async () => {
    const [hot, top, rotation, moves] = await Promise.all([
      world.get<{ markets: Array<{ market_id: string; question: string }> }>("/api/v2/home/hot-markets"),
      world.get<{ whales: Array<{ wallet: string }> }>("/api/v2/home/top-whales-7d"),
      world.get<{ categories: unknown[] }>("/api/v2/home/category-rotation"),
      world.get<{ moves: unknown[] }>("/api/v2/home/whale-moves"),
    ]);
    await open("#/");
    expect(hot.markets.length).toBeGreaterThan(0);
    expect(await texts("[data-section=hot-markets] tbody td:first-child a")).toEqual(hot.markets.map((m) => m.question));
    const topLinks = await page.locator("[data-testid=top-whales] a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(topLinks).toEqual(top.whales.map((w) => `#/wallet/${w.wallet}`));
    expect(await page.locator("[data-testid=category-rotation] li").count()).toBe(rotation.categories.length);
    expect(await page.locator("[data-testid=whale-moves] li").count()).toBe(moves.moves.length);
    await expect.poll(() => page.locator("[data-testid=watching]").textContent()).toMatch(/^\D*[1-9]\d* watching now/);
    await photograph("home");
  });

  it("raised no error in any page", () => {
    expect(pageErrors).toEqual([]);
  });
});
