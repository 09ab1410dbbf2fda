/**
 * The alerts page (#/alerts) in a real browser on the dashboard's world (test/support/dashboard-world.ts), opened
 * with alerts allowed to loopback: with a Premium key entered on the page, a signed webhook destination (a receiver
 * on loopback) and a rule on the world's busiest wallets are added through its forms and listed as the API lists
 * them; the destination's test fire and the rule's alerts of the live trades reach the receiver and show in the
 * recent deliveries, as the API logs them. Run by test/web-dashboard.test.ts, on its world and browser page.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { ChatPlatforms } from "../../src/sim/servers/chat-platforms.js";
import type { DashboardWorld } from "./dashboard-world.js";

/** The settings the dashboard's world needs for the alerts page's check. */
export const ALERTS_PAGE_ENV = { ALERTS_ALLOW_LOOPBACK: "true", ALERTS_RULES_CHECK_MS: "200" };

export async function checkAlertsPage(page: Page, world: DashboardWorld, platforms: ChatPlatforms): Promise<void> {
  const rows = (section: string) => page.locator(`[data-section=${section}] tbody tr`);
  const api = <T>(path: string) => world.get<T>(path, { "x-api-key": world.premiumKey });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${world.url}/#/alerts`);
  await page.waitForSelector("main[data-page]");
  await page.fill("input[name=key]", world.premiumKey);
  await page.click("form[aria-label='Premium key'] button[type=submit]");
  await expect.poll(() => page.locator("[data-section=destinations]").count()).toBe(1);

  // A signed webhook to the receiver: its secret is shown once, on the page.
  const destinationForm = page.locator("form[aria-label='Add a destination']");
  await destinationForm.locator("input[name=name]").fill("desk hook");
  await destinationForm.locator("input[name=url]").fill(platforms.urls.webhook);
  await destinationForm.locator("button[type=submit]").click();
  const message = page.locator("[data-testid=destination-message]");
  await expect.poll(() => message.textContent()).toMatch(/signing secret, shown this once: whsec_/);
  platforms.setWebhookSecret(/whsec_\S+/.exec((await message.textContent()) ?? "")![0]);
  type Destinations = { destinations: Array<{ id: number; name: string; label: string; status: string }> };
  const [destination] = (await api<Destinations>("/api/v2/alerts/destinations")).destinations;
  expect(destination).toMatchObject({ name: "desk hook", status: "active" });
  await expect.poll(() => rows("destinations").first().textContent()).toContain(destination!.label);

  // A rule on the busiest wallets of the world, which trades live, sending to it.
  const busiest = await world.service.store.db
    .selectFrom("wallet_stats")
    .select("wallet")
    .orderBy("total_trades", "desc")
    .limit(30)
    .execute();
  const ruleForm = page.locator("form[aria-label='Add a rule']");
  await ruleForm.locator("input[name=name]").fill("busy wallets");
  await ruleForm.locator("select").first().selectOption("wallet_trade");
  await ruleForm.locator("input[name=subjects]").fill(busiest.map((w) => w.wallet).join(", "));
  await ruleForm.locator(`input[name=destination][value='${destination!.id}']`).check();
  await ruleForm.locator("button[type=submit]").click();
  await expect.poll(() => page.locator("[data-testid=rule-message]").textContent()).toBe("Added.");
  type Rules = { rules: Array<{ id: number; name: string; kind: string; destination_ids: number[] }> };
  const [rule] = (await api<Rules>("/api/v2/alerts/rules")).rules;
  expect(rule).toMatchObject({ name: "busy wallets", kind: "wallet_trade", destination_ids: [destination!.id] });
  await expect.poll(() => rows("rules").first().textContent()).toContain("busy wallets");

  // The test fire, sent by the request itself, is in the log at once.
  await rows("destinations").first().locator("button", { hasText: "Test" }).click();
  await expect.poll(() => message.textContent()).toMatch(/^Test: delivered \(HTTP 2\d\d\)/);
  // The rule's alerts of the live trades arrive, and the page's log (refreshed every 5 s) shows what the API logs.
  type Log = { deliveries: Array<{ rule_id: number | null }> };
  await expect
    .poll(async () => (await api<Log>("/api/v2/alerts/deliveries")).deliveries.some((d) => d.rule_id === rule!.id), {
      timeout: 150_000,
      interval: 1_000,
    })
    .toBe(true);
  const ruleColumn = () => page.locator("[data-section=recent-deliveries] tbody td:nth-child(2)").allInnerTexts();
  await expect.poll(ruleColumn, { timeout: 20_000 }).toContain(String(rule!.id));
  expect(await ruleColumn()).toContain("test");
  const statuses = await page.locator("[data-section=recent-deliveries] tbody td:nth-child(5)").allInnerTexts();
  expect(statuses.some((s) => s.startsWith("delivered (200)"))).toBe(true);
  expect(platforms.received.filter((r) => r.platform === "webhook").every((r) => r.signed)).toBe(true);
}
