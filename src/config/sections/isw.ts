/** Settings, part of src/config/index.ts: the territory monitor: its layers, cadence, threat rules and webhooks. */
import { bool, int, num, optionalStr, str, url, HTTP } from "../settings.js";

export const isw = {
  arcgisUrl: url(
    "ISW_ARCGIS_URL",
    "https://services5.arcgis.com/SaBe5HMtmnbqSWlu/arcgis/rest/services",
    "ArcGIS REST services root of the ISW layers",
    HTTP,
  ),
  fastProbeSeconds: int("ISW_FAST_PROBE_SECONDS", 5, "probe interval inside the busy window", { min: 1 }),
  slowProbeSeconds: int("ISW_SLOW_PROBE_SECONDS", 30, "probe interval outside the busy window", { min: 1 }),
  busyWindowStartHour: int("ISW_BUSY_START_HOUR_UTC", 13, "busy window start (UTC hour)", { min: 0, max: 23 }),
  busyWindowEndHour: int("ISW_BUSY_END_HOUR_UTC", 19, "busy window end (UTC hour)", { min: 0, max: 24 }),
  criticalCoverage: num("ISW_ENTIRETY_COVERAGE", 0.98, "coverage that counts as all of a polygon captured", {
    min: 0,
    max: 1,
  }),
  highDistanceM: num("ISW_HIGH_DISTANCE_M", 1_000, "HIGH threat within this distance", { min: 0 }),
  highCoverage: num("ISW_HIGH_COVERAGE", 0.5, "HIGH threat at this coverage (entirety)", { min: 0, max: 1 }),
  mediumDistanceM: num("ISW_MEDIUM_DISTANCE_M", 3_000, "MEDIUM threat within this distance", { min: 0 }),
  mediumCoverage: num("ISW_MEDIUM_COVERAGE", 0.2, "MEDIUM threat at this coverage", { min: 0, max: 1 }),
  lowDistanceM: num("ISW_LOW_DISTANCE_M", 10_000, "LOW threat within this distance", { min: 0 }),
  monitor: bool(
    "ISW_MONITOR",
    true,
    "run the territory probe in the process that ingests (role all with INGEST=true, or role ingest); its webhook registrations are alert rules, delivered by the alerts (ALERTS)",
  ),
  controlLayer: str(
    "ISW_CONTROL_LAYER",
    "VIEW_RussiaCoTinUkraine_V3/FeatureServer/49",
    "assessed Russian control layer: a path under ISW_ARCGIS_URL, or a full URL",
  ),
  advanceLayer: str(
    "ISW_ADVANCE_LAYER",
    "AssessedRussianAdvanceInUkraine_V2_view/FeatureServer/0",
    "assessed Russian advance layer: a path under ISW_ARCGIS_URL, or a full URL",
  ),
  gainsLayer: str(
    "ISW_GAINS_LAYER",
    "Assessed_Russian_Gains_in_the_Past_24_Hours_view/FeatureServer/0",
    "gains of the past 24 h (no edit dates: fetched and hashed at most every ISW_SLOW_PROBE_SECONDS); empty: not probed",
  ),
  infiltrationLayer: str(
    "ISW_INFILTRATION_LAYER",
    "View_AssessedRussianInfiltrationAreasinUkraine_V4/FeatureServer/0",
    "infiltration areas, counted for enter subscriptions only; empty: not probed",
  ),
  citiesFile: optionalStr(
    "ISW_CITIES_FILE",
    "JSON file of the monitored cities and their subscriptions (format in README), replacing the built-in list of the venue's territory markets",
  ),
  bufferAdvanceM: num(
    "ISW_BUFFER_ADVANCE_M",
    200,
    "buffer of a single (point) subscription that names none: the point counts as shaded when shading comes this close",
    { min: 0 },
  ),
  confirmAfterHours: num(
    "ISW_CONFIRM_AFTER_HOURS",
    12,
    "a capture is confirmed by the first map that still shows it after its control and advance layers were both edited again, once this long has passed since the capture (the next full daily update, not a same-day correction)",
    { min: 0 },
  ),
  probeBackoffMaxSeconds: int(
    "ISW_PROBE_BACKOFF_MAX_SECONDS",
    600,
    "longest pause of the probe after the layers' server throttled or failed (the pause doubles from the probe interval)",
    { min: 1 },
  ),
  statusCacheSeconds: int(
    "ISW_STATUS_CACHE_SECONDS",
    45,
    "cache window of /isw/status (an API process answers from the last good answer while the store fails)",
    { min: 0 },
  ),
  webhookKey: optionalStr(
    "ISW_WEBHOOK_KEY",
    "base64 of 32 bytes: the key that encrypts webhook secrets in the store; unset: the key file webhook-secrets.key in DATA_DIR, created on first use (scaled mode: set it on every process)",
  ),
  webhookRetrySchedule: str(
    "ISW_WEBHOOK_RETRY_SCHEDULE",
    "0,5,300,1800,7200,18000,36000,36000",
    "seconds before each delivery attempt of a webhook or alert, the first included (each later one with up to 10% jitter, and never before a Retry-After)",
  ),
  webhooksPerAccount: int(
    "ISW_WEBHOOKS_PER_ACCOUNT",
    10,
    "webhook URLs one account may register for territory events (each is also an alert rule and destination of the account)",
    {
      min: 1,
      max: 1_000,
    },
  ),
} as const;
