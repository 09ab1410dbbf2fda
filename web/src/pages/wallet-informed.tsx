/**
 * A wallet's informed flow (issue 52): where its collateral came from (funders hop by hop, its funding cluster) and,
 * with the user's Premium key, its insider scores with each component.
 */
import { api, premiumKey, useLoad } from "../api.js";
import { Empty, MarketLink, Show } from "../components/ui.js";
import { count, shortAddress, usd, when } from "../format.js";
import { href } from "../router.js";

export function WalletFunding(props: { address: string }) {
  const funding = useLoad(
    () => api.GET("/api/v2/wallet/{address}/funding", { params: { path: { address: props.address } } }),
    [props.address],
  );
  return (
    <Show loaded={funding}>
      {(f) =>
        !f.traced ? (
          <Empty>Its funding has not been read yet.</Empty>
        ) : (
          <>
            <p class="note" data-testid="funding-cluster">
              {f.cluster
                ? `In a funding cluster of ${count(f.cluster.size)} wallets: funder ${shortAddress(f.cluster.funder)}, ${f.cluster.funder_hops ?? "?"} transfers back.`
                : "Shares no funder with another wallet (hubs aside)."}{" "}
              First funded {when(f.first_funded_at)}, {usd(f.funded_usd)} from its direct funders.
            </p>
            {f.funders.length === 0 ? (
              <Empty>No collateral transfer into it was found.</Empty>
            ) : (
              <ul class="feed" data-testid="funders">
                {f.funders.slice(0, 12).map((x) => (
                  <li key={`${x.hop}-${x.address}`}>
                    hop {x.hop}: {x.hub_name ?? shortAddress(x.address)}{" "}
                    <span class="muted small">
                      {x.kind.replace("_", " ")} · {usd(x.usd)} in {count(x.transfers)} transfers to{" "}
                      {x.funded === f.wallet ? "this wallet" : shortAddress(x.funded)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )
      }
    </Show>
  );
}

/** The wallet's highest scored bets shown (one page of the route). */
const SHOWN_BETS = 8;

export function WalletInsider(props: { address: string }) {
  const key = premiumKey.get();
  const scores = useLoad(
    () =>
      key
        ? api.GET("/api/v2/wallet/{address}/insider", {
            params: { path: { address: props.address }, query: { limit: SHOWN_BETS } },
            headers: premiumKey.headers(),
          })
        : Promise.reject(new Error("no key")),
    [props.address, key],
  );
  if (!key)
    return (
      <Empty>
        Insider scores are Premium: enter a key on the <a href={href.premium()}>whale alerts</a> page.
      </Empty>
    );
  return (
    <Show loaded={scores}>
      {(s) =>
        s.bets.length === 0 ? (
          <Empty>No bet of this wallet is large and recent enough to score.</Empty>
        ) : (
          <ul class="feed" data-testid="insider-scores">
            {s.bets.map((b) => (
              <li key={`${b.condition_id}-${b.outcome}`}>
                <strong>{b.score.toFixed(0)}</strong> {b.outcome} on{" "}
                <MarketLink id={b.market_id} label={b.market_title ?? b.condition_id} />{" "}
                <span class="muted small">
                  {usd(b.bet_usd)} at {b.avg_price.toFixed(2)} · confidence {b.confidence.toFixed(2)} ·{" "}
                  {b.components
                    .filter((c) => c.value !== null && c.value >= 0.5)
                    .map((c) => c.name.replace("_", " "))
                    .join(", ")}
                </span>
              </li>
            ))}
          </ul>
        )
      }
    </Show>
  );
}
