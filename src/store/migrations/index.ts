/**
 * Every migration, in order. A later issue adds its own tables as a new file and one line here;
 * names sort by their number, and a migration never changes once it has landed.
 */
import type { StoreMigration } from "./column-types.js";
import { core } from "./0001_core.js";
import { accounts } from "./0002_accounts.js";
import { ingest } from "./0003_ingest.js";
import { walletLookups } from "./0004_wallet_lookups.js";
import { boardExtras } from "./0005_board_extras.js";
import { chainOrderedFillKeys } from "./0006_chain_ordered_fill_keys.js";
import { byteOrderText } from "./0007_byte_order_text.js";
import { plainRowIds } from "./0008_plain_row_ids.js";
import { lookupClients } from "./0009_lookup_clients.js";
import { aiAnalyses } from "./0010_ai_analyses.js";
import { isw } from "./0011_isw.js";
import { venueFigures } from "./0012_venue_figures.js";
import { nameLookups } from "./0013_name_lookups.js";
import { drilldownFillIndexes } from "./0014_drilldown_fill_indexes.js";
import { partitionedFills } from "./0016_partitioned_fills.js";
import { walletFees } from "./0017_wallet_fees.js";
import { marketDailyPrices } from "./0018_market_daily_prices.js";
import { walletHistory } from "./0021_wallet_history.js";
import { marketSettlementCounts } from "./0022_market_settlement_counts.js";
import { walletLastMoves } from "./0023_wallet_last_moves.js";
import { walletMarketFillSums } from "./0024_wallet_market_fill_sums.js";
import { marketHoldersIndex } from "./0025_market_holders_index.js";
import { tableChanges } from "./0026_table_changes.js";
import { rankedTradersIndex } from "./0027_ranked_traders_index.js";
import { hotTradersIndex } from "./0028_hot_traders_index.js";
import { compactFills } from "./0029_compact_fills.js";
import { withoutRowid } from "./0030_without_rowid.js";
import { walletKeyedSeries } from "./0031_wallet_keyed_series.js";
import { alertRules } from "./0032_alert_rules.js";
import { alertMatches } from "./0033_alert_matches.js";
import { positionsDigest } from "./0034_positions_digest.js";
import { territoryWebhooksAsAlerts } from "./0035_territory_webhooks_as_alerts.js";
import { idKeyedTables } from "./0036_id_keyed_tables.js";
import { funding } from "./0037_funding.js";
import { insiderScores } from "./0038_insider_scores.js";
import { signalLedger } from "./0039_signal_ledger.js";
import { insiderFacts } from "./0040_insider_facts.js";
import { positionsByIds } from "./0041_positions_by_ids.js";
import { codedFills } from "./0042_coded_fills.js";
import { venueCacheByIds } from "./0043_venue_cache_by_ids.js";
import { insiderScoresByIds } from "./0044_insider_scores_by_ids.js";
import { activityByIds } from "./0045_activity_by_ids.js";
import { snapshotRuns } from "./0046_snapshot_runs.js";
import { packedPnlSeries } from "./0047_packed_pnl_series.js";
import { impliedTxHashes } from "./0048_implied_tx_hashes.js";
import { noOrderHashes } from "./0049_no_order_hashes.js";
import { codedRoles } from "./0050_coded_roles.js";
import { fillSpans } from "./0051_fill_spans.js";
import { noChainKeyIndex } from "./0052_no_chain_key_index.js";
import { smartWalletIds } from "./0053_smart_wallet_ids.js";
import { sumsIndexWithoutId } from "./0054_sums_index_without_id.js";
import { fundingByIds } from "./0055_funding_by_ids.js";
import { codedDerivedTables } from "./0056_coded_derived_tables.js";
import { noActivityChainKeyIndex } from "./0057_no_activity_chain_key_index.js";
import { dayNumbers } from "./0058_day_numbers.js";
import { packedFillCodes } from "./0059_packed_fill_codes.js";
import { codedPositionStatus } from "./0060_coded_position_status.js";
import { compactInsiderFacts } from "./0061_compact_insider_facts.js";
import { activityIdsFromCounter } from "./0062_activity_ids_from_counter.js";
import { insiderScoreHundredths } from "./0063_insider_score_hundredths.js";
import { textKeyedWithoutRowid } from "./0064_text_keyed_without_rowid.js";
import { compactSnapshotCosts } from "./0065_compact_snapshot_costs.js";

export const migrations: Record<string, StoreMigration> = {
  "0001_core": core,
  "0002_accounts": accounts,
  "0003_ingest": ingest,
  "0004_wallet_lookups": walletLookups,
  "0005_board_extras": boardExtras,
  "0006_chain_ordered_fill_keys": chainOrderedFillKeys,
  "0007_byte_order_text": byteOrderText,
  "0008_plain_row_ids": plainRowIds,
  "0009_lookup_clients": lookupClients,
  "0010_ai_analyses": aiAnalyses,
  "0011_isw": isw,
  "0012_venue_figures": venueFigures,
  "0013_name_lookups": nameLookups,
  "0014_drilldown_fill_indexes": drilldownFillIndexes,
  "0016_partitioned_fills": partitionedFills,
  "0017_wallet_fees": walletFees,
  "0018_market_daily_prices": marketDailyPrices,
  "0021_wallet_history": walletHistory,
  "0022_market_settlement_counts": marketSettlementCounts,
  "0023_wallet_last_moves": walletLastMoves,
  "0024_wallet_market_fill_sums": walletMarketFillSums,
  "0025_market_holders_index": marketHoldersIndex,
  "0026_table_changes": tableChanges,
  "0027_ranked_traders_index": rankedTradersIndex,
  "0028_hot_traders_index": hotTradersIndex,
  "0029_compact_fills": compactFills,
  "0030_without_rowid": withoutRowid,
  "0031_wallet_keyed_series": walletKeyedSeries,
  "0032_alert_rules": alertRules,
  "0033_alert_matches": alertMatches,
  "0034_positions_digest": positionsDigest,
  "0035_territory_webhooks_as_alerts": territoryWebhooksAsAlerts,
  "0036_id_keyed_tables": idKeyedTables,
  "0037_funding": funding,
  "0038_insider_scores": insiderScores,
  "0039_signal_ledger": signalLedger,
  "0040_insider_facts": insiderFacts,
  "0041_positions_by_ids": positionsByIds,
  "0042_coded_fills": codedFills,
  "0043_venue_cache_by_ids": venueCacheByIds,
  "0044_insider_scores_by_ids": insiderScoresByIds,
  "0045_activity_by_ids": activityByIds,
  "0046_snapshot_runs": snapshotRuns,
  "0047_packed_pnl_series": packedPnlSeries,
  "0048_implied_tx_hashes": impliedTxHashes,
  "0049_no_order_hashes": noOrderHashes,
  "0050_coded_roles": codedRoles,
  "0051_fill_spans": fillSpans,
  "0052_no_chain_key_index": noChainKeyIndex,
  "0053_smart_wallet_ids": smartWalletIds,
  "0054_sums_index_without_id": sumsIndexWithoutId,
  "0055_funding_by_ids": fundingByIds,
  "0056_coded_derived_tables": codedDerivedTables,
  "0057_no_activity_chain_key_index": noActivityChainKeyIndex,
  "0058_day_numbers": dayNumbers,
  "0059_packed_fill_codes": packedFillCodes,
  "0060_coded_position_status": codedPositionStatus,
  "0061_compact_insider_facts": compactInsiderFacts,
  "0062_activity_ids_from_counter": activityIdsFromCounter,
  "0063_insider_score_hundredths": insiderScoreHundredths,
  "0064_text_keyed_without_rowid": textKeyedWithoutRowid,
  "0065_compact_snapshot_costs": compactSnapshotCosts,
};
