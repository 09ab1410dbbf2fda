/**
 * The simulated venue in a process of its own (`pelagic sim`), for the demo: generating the world and encoding
 * every log it serves is as much work as ingesting them, and in a second process it runs on the second core
 * instead of taking turns with the service on one event loop.
 */
import { spawn } from "node:child_process";
import type { SimVenueUrls } from "./servers/index.js";
import { packagePath } from "../package.js";

const BIN = packagePath("bin", "pelagic.js");
/**
 * V8's semi-space for the venue, which builds every answer's logs as short-lived objects by the million: 64 MiB
 * instead of the default 16 runs young collections a quarter as often (its CPU over a demo's first sync: 13-14 s →
 * 10-11 s). The service's threads keep the default: the same size there cost 200 MB of peak RSS and no CPU.
 */
const SEMI_SPACE_MB = 64;

/** `pelagic sim`'s output lines naming each URL, mapped to the venue's URL fields. */
const URL_SETTINGS: Record<string, keyof SimVenueUrls> = {
  VENUE_GAMMA_URL: "gamma",
  VENUE_DATA_API_URL: "dataApi",
  VENUE_PNL_URL: "pnl",
  VENUE_RTDS_URL: "rtds",
  VENUE_RPC_URL: "rpc",
  ISW_ARCGIS_URL: "arcgis",
};

export interface VenueProcess {
  readonly urls: SimVenueUrls;
  /** The child's process id (to read its resource use). */
  readonly pid: number;
  close(): Promise<void>;
}

/** Starts `pelagic sim <args>` on loopback and resolves with its URLs once it prints them. */
export function startVenueProcess(args: readonly string[]): Promise<VenueProcess> {
  const child = spawn(process.execPath, [`--max-semi-space-size=${SEMI_SPACE_MB}`, BIN, "sim", ...args], {
    env: { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const urls: Partial<SimVenueUrls> = {};
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        const [name, ...value] = line.split("=");
        const field = URL_SETTINGS[name ?? ""];
        if (field) urls[field] = value.join("=");
      }
      if (Object.values(URL_SETTINGS).every((field) => urls[field]))
        resolve({ urls: urls as SimVenueUrls, pid: child.pid as number, close });
    });
    void exited.then((code) => reject(new Error(`the simulated venue exited (code ${code}) before it was ready`)));
  });
}
