/** Pages are addressed by the URL's hash (`#/wallet/0x…`), so the service serves one page at `/` and nothing else. */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "home" }
  | { page: "wallet"; address: string }
  | { page: "market"; id: string }
  | { page: "leaderboards"; query: URLSearchParams }
  | { page: "premium" }
  | { page: "territory" }
  | { page: "alerts" }
  | { page: "scorecard" }
  | { page: "not-found"; path: string };

export function parseRoute(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { page: "home" };
  if (parts[0] === "wallet" && parts[1]) return { page: "wallet", address: parts[1] };
  if (parts[0] === "market" && parts[1]) return { page: "market", id: parts[1] };
  if (parts[0] === "leaderboards") return { page: "leaderboards", query: new URLSearchParams(search) };
  if (parts[0] === "premium") return { page: "premium" };
  if (parts[0] === "territory") return { page: "territory" };
  if (parts[0] === "alerts") return { page: "alerts" };
  if (parts[0] === "scorecard") return { page: "scorecard" };
  return { page: "not-found", path };
}

export const href = {
  home: () => "#/",
  wallet: (address: string) => `#/wallet/${encodeURIComponent(address)}`,
  market: (id: string) => `#/market/${encodeURIComponent(id)}`,
  leaderboards: (query?: URLSearchParams) => (query && query.size > 0 ? `#/leaderboards?${query}` : "#/leaderboards"),
  premium: () => "#/premium",
  territory: () => "#/territory",
  alerts: () => "#/alerts",
  scorecard: () => "#/scorecard",
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => {
      setRoute(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
