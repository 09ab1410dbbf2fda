/**
 * A report is plain text: Markdown headings and lists at most, and nothing a dashboard, a Markdown renderer or a
 * client pasting it into HTML would turn into markup. A model's text is cleaned: HTML (tags, comments, scripts and
 * styles with their content) and URLs are removed, links and images keep only their words, and any `<`, `>`,
 * `[` or `]` left is written as its full-width look-alike. User-controlled names (a venue name, a market question)
 * are kept as written but inert: the same look-alikes, and URLs defanged (`hxxps://evil[.]example`).
 */

const SCRIPT_OR_STYLE = /<(script|style)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A tag, an autolink, a closing tag or a declaration: `<` followed by a letter, `/`, `!` or `?`, to its `>`. */
const TAG = /<[a-zA-Z/!?][^<>]*>?/g;
/** `[words](target)`, `![words](target)` (a target may hold one level of parentheses) or `[words][ref]`. */
const IMAGE_OR_LINK = /!?\[([^\]]*)\]\s*(?:\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])/g;
const LINK_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm;
const URL = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"')\]]*/gi;
/** Schemes that run or embed something, written without `//`. */
const ACTIVE_SCHEME = /\b(?:javascript|vbscript|data):/gi;

const LOOK_ALIKES: Record<string, string> = { "<": "\uff1c", ">": "\uff1e", "[": "\uff3b", "]": "\uff3d" };
const markupCharacters = (text: string) => text.replace(/[<>[\]]/g, (c) => LOOK_ALIKES[c]!);

/** A model's section text without markup: what the words said, with nothing a renderer would act on. */
export function plainText(text: string): string {
  const cleaned = text
    .replace(SCRIPT_OR_STYLE, "")
    .replace(COMMENT, "")
    .replace(TAG, "")
    .replace(LINK_DEFINITION, "")
    .replace(IMAGE_OR_LINK, "$1")
    .replace(URL, "")
    .replace(ACTIVE_SCHEME, "");
  return markupCharacters(cleaned)
    .replace(/(\S)[ \t]{2,}/g, "$1 ")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Someone else's text (a name, a question) kept readable but inert: look-alikes for markup, URLs defanged. */
export function inertText(text: string): string {
  return markupCharacters(text)
    .replace(URL, (url) =>
      url.replace(/^[a-z][a-z0-9+.-]*(?=:\/\/)/i, (scheme) => scheme.replace(/t/gi, "x")).replace(/\./g, "[.]"),
    )
    .replace(ACTIVE_SCHEME, (scheme) => scheme.replace(":", "[:]"));
}
