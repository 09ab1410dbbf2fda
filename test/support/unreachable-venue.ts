/**
 * A service whose venue cannot be reached, as `npm start` is on a machine without network: every venue URL points at
 * a loopback port nothing listens on (connection refused), over a fresh SQLite store. For the checks that the service
 * then says so (health's cause and hint, the not-ready header, the dashboard's banner).
 */
import { freePort } from "./free-port.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/platform/logger.js";
import { startService, type Service } from "../../src/runtime/index.js";

export interface UnreachableVenueService {
  readonly url: string;
  readonly service: Service;
  close(): Promise<void>;
}

export async function openUnreachableVenueService(): Promise<UnreachableVenueService> {
  const nowhere = `127.0.0.1:${await freePort()}`;
  const dataDir = mkdtempSync(join(tmpdir(), "pelagic-offline-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    REDIS_URL: "",
    PORT: "0",
    LOG_LEVEL: "silent",
    VENUE_GAMMA_URL: `http://${nowhere}`,
    VENUE_DATA_API_URL: `http://${nowhere}`,
    VENUE_PNL_URL: `http://${nowhere}`,
    VENUE_RTDS_URL: `ws://${nowhere}`,
    ISW_ARCGIS_URL: `http://${nowhere}`,
  });
  const service = await startService(config, { logger: createLogger("silent") });
  return {
    url: service.url,
    service,
    async close() {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
