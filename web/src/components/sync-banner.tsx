/**
 * The banner that says why the pages may be empty: the service's first sync with the venue is still running (with
 * the sources done so far), or the venue cannot be reached (the cause and what to do, as health words them). Read
 * from /api/v1/health every few seconds until the service is ready; nothing is shown once it is.
 */
import { useState } from "preact/hooks";
import { type Answer, api, useEvery } from "../api.js";

type Health = Answer<"/api/v1/health">;

/** The error classes that mean the venue cannot be reached, each in words. */
const UNREACHABLE: Readonly<Record<string, string>> = {
  dns: "its host name does not resolve",
  refused: "the connection is refused",
  timeout: "it does not answer in time",
  network: "the connection fails",
  venue_unavailable: "it keeps failing",
  venue_http_4xx: "it refuses the requests",
};

export function SyncBanner() {
  const [health, setHealth] = useState<Health | null>(null);
  const ready = health?.ready === true;
  useEvery(5_000, () => {
    if (ready) return;
    void api.GET("/api/v1/health").then(({ data }) => data && setHealth(data));
  }, [ready]);
  if (!health || health.ready) return null;
  const failing = health.sources.find(
    (s) => !s.first_sync_done && s.last_error_class !== null && Object.hasOwn(UNREACHABLE, s.last_error_class),
  );
  if (failing) {
    return (
      <p class="banner down" role="status" data-testid="sync-banner">
        The venue is unreachable ({failing.source}: {UNREACHABLE[failing.last_error_class!]}).{" "}
        {failing.last_error_hint ?? ""}
      </p>
    );
  }
  const done = health.sources.filter((s) => s.first_sync_done).length;
  return (
    <p class="banner" role="status" data-testid="sync-banner">
      Syncing with the venue: {done} of {health.sources.length} sources done. Pages fill in as the first sync lands.
    </p>
  );
}
