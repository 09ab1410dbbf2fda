/**
 * Accessibility checks run inside a dashboard page (expressions for Playwright's page.evaluate; the test program
 * has no DOM types, so they are JavaScript text).
 */

/**
 * Every visible text whose colour against its backdrop is under WCAG AA: 4.5:1, or 3:1 for large text (24 px, or
 * 18.66 px bold). The backdrop is the nearest ancestor with a background colour (its alpha ignored). Text inside
 * SVG (coloured by fill) and the charts' canvas are not looked at.
 */
export const LOW_CONTRAST_TEXTS = `(() => {
  const rgb = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
  const channel = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const backdrop = (element) => {
    for (let e = element; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element || element.closest("svg, .visually-hidden, :disabled")) continue;
    const style = getComputedStyle(element);
    if (element.getClientRects().length === 0 || style.visibility === "hidden") continue;
    const [a, b] = [luminance(rgb(style.color)), luminance(backdrop(element))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      low.push(node.textContent.trim().slice(0, 40) + " (" + ratio.toFixed(2) + ":1, " + style.color + ")");
  }
  return low;
})()`;

/** Numbers every control a keyboard can reach (data-kbd) and answers how many there are. */
export const NUMBER_CONTROLS = `(() => {
  const controls = [...document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]")].filter(
    (e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0,
  );
  controls.forEach((e, i) => e.setAttribute("data-kbd", String(i)));
  return controls.length;
})()`;

/** The focused control's number (data-kbd) and whether its focus is drawn (an outline). */
export const FOCUSED_CONTROL = `(() => {
  const e = document.activeElement;
  const style = e ? getComputedStyle(e) : null;
  return { kbd: e?.getAttribute("data-kbd") ?? null, outlined: !!style && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2 };
})()`;
