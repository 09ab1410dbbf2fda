/**
 * Settings, part of src/config/index.ts: the alerts Premium accounts define (issue 51): their limits, the matcher in
 * the process that ingests, the delivery worker in every API process, and the chat platforms' hosts (settings, so
 * tests and the demo point them at loopback). Secrets are sealed with ISW_WEBHOOK_KEY, retries follow
 * ISW_WEBHOOK_RETRY_SCHEDULE: the territory webhooks' own.
 */
import { bool, int, num, url, HTTP } from "../settings.js";

export const alerts = {
  enabled: bool(
    "ALERTS",
    true,
    "match stored fills against the accounts' alert rules (in the process that ingests) and deliver them (in every API process)",
  ),
  rulesPerAccount: int("ALERTS_RULES_PER_ACCOUNT", 100, "alert rules one account may keep", { min: 1, max: 10_000 }),
  destinationsPerAccount: int("ALERTS_DESTINATIONS_PER_ACCOUNT", 10, "alert destinations one account may keep", {
    min: 1,
    max: 1_000,
  }),
  subjectsPerRule: int("ALERTS_SUBJECTS_PER_RULE", 100, "wallets or markets one alert rule may watch", {
    min: 1,
    max: 10_000,
  }),
  defaultMinUsd: num(
    "ALERTS_WHALE_MIN_USD",
    10_000,
    "a market's whale trade alerts from this size (USD) when its rule names no min_usd",
    { min: 0 },
  ),
  maxFillAgeSeconds: int(
    "ALERTS_MAX_FILL_AGE_SECONDS",
    900,
    "a fill older than this when the ingest stores it (a backfill, a catch-up after downtime) alerts nobody",
    { min: 1 },
  ),
  rulesCheckMs: int(
    "ALERTS_RULES_CHECK_MS",
    500,
    "how often the matcher looks whether the rules changed (and reloads them), besides being told by the API processes",
    { min: 10, max: 60_000 },
  ),
  territoryPollMs: int(
    "ALERTS_TERRITORY_POLL_MS",
    1_000,
    "how often the process that runs the territory monitor looks for its new events to alert (territory_event rules)",
    { min: 10, max: 60_000 },
  ),
  consensusPollSeconds: int(
    "ALERTS_CONSENSUS_POLL_SECONDS",
    10,
    "how often the process that ingests compares the watched markets' Smart Money consensus (consensus_flip rules) with the side it saw last",
    { min: 1, max: 3_600 },
  ),
  pollMs: int("ALERTS_POLL_MS", 250, "how often an API process looks for due alert deliveries when nothing wakes it", {
    min: 10,
    max: 60_000,
  }),
  concurrency: int("ALERTS_CONCURRENCY", 8, "alert deliveries one API process sends at once", { min: 1, max: 256 }),
  timeoutSeconds: int(
    "ALERTS_TIMEOUT_SECONDS",
    10,
    "an alert delivery succeeds only with a 2xx answer within this long",
    {
      min: 1,
      max: 120,
    },
  ),
  leaseMarginSeconds: int(
    "ALERTS_LEASE_MARGIN_SECONDS",
    30,
    "how long past its send timeout a claimed alert delivery may wait on its platform's pace before another process may take it (also how soon a crashed process's claims are retried)",
    { min: 1, max: 600 },
  ),
  allowLoopback: bool("ALERTS_ALLOW_LOOPBACK", false, "allow alert destinations on loopback (tests and the demo only)"),
  telegramApiUrl: url(
    "ALERTS_TELEGRAM_API_URL",
    "https://api.telegram.org",
    "the Telegram Bot API root: sendMessage is POSTed to <root>/bot<token>/sendMessage",
    HTTP,
  ),
  discordWebhookPrefix: url(
    "ALERTS_DISCORD_WEBHOOK_PREFIX",
    "https://discord.com/api/webhooks/",
    "a Discord destination's webhook URL must start with this",
    HTTP,
  ),
  slackWebhookPrefix: url(
    "ALERTS_SLACK_WEBHOOK_PREFIX",
    "https://hooks.slack.com/services/",
    "a Slack destination's incoming-webhook URL must start with this",
    HTTP,
  ),
  dashboardUrl: url(
    "ALERTS_DASHBOARD_URL",
    "http://127.0.0.1:8080",
    "the dashboard's public root: an alert links to its wallet or market page there",
    HTTP,
  ),
  deliveriesKeptDays: int(
    "ALERTS_DELIVERIES_KEPT_DAYS",
    30,
    "finished alert deliveries (delivered, failed, cancelled) are deleted this many days after they finished",
    { min: 1, max: 3_650 },
  ),
  deliveriesListed: int("ALERTS_DELIVERIES_LISTED", 200, "most deliveries one call of the delivery log lists", {
    min: 1,
    max: 10_000,
  }),
} as const;
