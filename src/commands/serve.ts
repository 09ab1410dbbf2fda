/** `pelagic serve`: the HTTP service and, by role, the ingest. */
import { createLogger } from "../platform/logger.js";
import { guardProcess, startService, stopOnSignals } from "../runtime/index.js";
import { settingFlag, type CommandSpec } from "./spec.js";

export const serveCommand: CommandSpec = {
  name: "serve",
  summary: "run the HTTP service (and, with role all, ingest)",
  description:
    "Migrates the store, then serves the API; with ROLE=all and INGEST=true (the defaults) the same process ingests " +
    "from the venue and keeps the derived tables current. SIGTERM or Ctrl-C drains in-flight requests and stops cleanly.",
  flags: {
    port: settingFlag("PORT", "<port>"),
    host: settingFlag("HOST", "<address>"),
    role: settingFlag("ROLE", "all|api|ingest"),
  },
  examples: ["pelagic serve --port 9000", "DATABASE_URL=postgres://localhost/pelagic pelagic serve --role api"],
  async run(config) {
    const logger = createLogger(config.server.logLevel);
    guardProcess(logger);
    const service = await startService(config, { logger });
    stopOnSignals(service, logger, config.server.shutdownGraceMs);
  },
};
