/** The shell: a skip link, the navigation, and the page the hash names. */
import { SyncBanner } from "./components/sync-banner.js";
import { HomePage } from "./pages/home.js";
import { LeaderboardsPage } from "./pages/leaderboards.js";
import { MarketPage } from "./pages/market.js";
import { PremiumPage } from "./pages/premium.js";
import { TerritoryPage } from "./pages/territory.js";
import { AlertsPage } from "./pages/alerts.js";
import { ScorecardPage } from "./pages/scorecard.js";
import { WalletPage } from "./pages/wallet.js";
import { href, useRoute, type Route } from "./router.js";

const NAV: Array<{ page: Route["page"]; label: string; href: string }> = [
  { page: "home", label: "Home", href: href.home() },
  { page: "leaderboards", label: "Leaderboards", href: href.leaderboards() },
  { page: "premium", label: "Whale alerts", href: href.premium() },
  { page: "territory", label: "Territory", href: href.territory() },
  { page: "alerts", label: "Your alerts", href: href.alerts() },
  { page: "scorecard", label: "Scorecard", href: href.scorecard() },
];

function Page(props: { route: Route }) {
  const { route } = props;
  switch (route.page) {
    case "home":
      return <HomePage />;
    case "wallet":
      return <WalletPage address={route.address} key={route.address} />;
    case "market":
      return <MarketPage id={route.id} key={route.id} />;
    case "leaderboards":
      return <LeaderboardsPage query={route.query} />;
    case "premium":
      return <PremiumPage />;
    case "territory":
      return <TerritoryPage />;
    case "alerts":
      return <AlertsPage />;
    case "scorecard":
      return <ScorecardPage />;
    default:
      return (
        <section class="card">
          <h1>Not found</h1>
          <p>
            No page here. <a href={href.home()}>Back home</a>.
          </p>
        </section>
      );
  }
}

export function App() {
  const route = useRoute();
  return (
    <>
      {/* A button, not a link: the hash names the page, so "#main" would navigate away. */}
      <button type="button" class="skip" onClick={() => document.getElementById("main")?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <a class="brand" href={href.home()}>
          <span aria-hidden="true">◗</span> Pelagic
        </a>
        <nav aria-label="Pages">
          <ul>
            {NAV.map((item) => (
              <li key={item.page}>
                <a href={item.href} aria-current={route.page === item.page ? "page" : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1} data-page={route.page}>
        <SyncBanner />
        <Page route={route} />
      </main>
      <footer class="foot">
        Built on Pelagic's public API · <a href="/api/openapi.json">OpenAPI</a>
      </footer>
    </>
  );
}
