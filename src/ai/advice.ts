/**
 * What an analysis must never say: that returns are certain, or what the reader should trade. A report describes a
 * wallet; a model that was steered (a wallet's name is other people's text) or that slipped into advice writes
 * "Buy YES on every market" or "guaranteed returns", and such an answer is refused like one that lacks a section
 * (the generation fails, is retried, and nothing of it is saved). The patterns look for the claim and the
 * imperative, not for the words alone: "returns are not guaranteed" and "it bought YES" are descriptions.
 */

const CERTAINTY: readonly RegExp[] = [
  /(?<!\b(?:no|not|never|without)\s+)\bguaranteed\s+(?:[\w$%.,-]+\s+)?(?:returns?|profits?|gains?|wins?|winnings|income|payouts?|money|results?)\b/i,
  /\b(?:returns?|profits?|gains?|payouts?|wins?|results?)\s+(?:are|is)\s+(?!not\b|never\b)(?:\w+\s+)?guaranteed\b/i,
  /\b(?:risk[- ]free|no[- ]risk|zero[- ]risk)\b/i,
  /\b(?:can(?:no|['’])?t|cannot|won['’]?t|never)\s+lose\b/i,
  /\bsure[- ](?:thing|bet|win|profit)s?\b/i,
  /\bfree money\b/i,
];

/** A sentence or list item that starts by telling the reader to trade. */
const IMPERATIVE =
  /(?:^|[.!?:;]\s+|\n\s*(?:[-*+•]\s+|\d+[.)]\s+)?)(?:buy|sell|short|bet|copy|mirror|follow|invest|stake|load up|go (?:long|short|all[- ]in)|place (?:a|your) (?:bet|order|trade))\b/i;
/** Advice addressed to the reader anywhere in a sentence. */
const ADDRESSED: readonly RegExp[] = [
  /\byou\s+(?:should|must|need to|ought to|have to)\s+(?:\w+\s+)?(?:buy|sell|short|bet|copy|mirror|follow|invest|trade|go long|go short)\b/i,
  /\b(?:i|we)\s+(?:strongly\s+)?(?:recommend|suggest|advise)\s+(?:that\s+you\s+)?(?:buying|selling|shorting|betting|copying|mirroring|following|investing|buy|sell|bet|copy|follow|invest)\b/i,
  /\b(?:consider|start|try)\s+(?:buying|selling|shorting|betting|copying|mirroring|following|investing)\b/i,
];

/** The first phrase of `text` that claims certain returns or tells the reader to trade, or null when none does. */
export function adviceIn(text: string): string | null {
  for (const pattern of [...CERTAINTY, IMPERATIVE, ...ADDRESSED]) {
    const match = pattern.exec(text);
    if (match) return match[0].trim();
  }
  return null;
}
