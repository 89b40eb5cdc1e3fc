import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * Accessibility checks of a console page in Chromium: axe-core's rules (WCAG 2.0–2.2 A and AA), and the contrast of
 * the focus indicator at every Tab stop (WCAG 2.2 1.4.11 and 2.4.13 ask 3:1 against what it sits on).
 */

declare global {
  interface Window {
    axe?: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
  }
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's violations on the page as loaded, one line each (rule, impact, the elements). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's content security policy does not govern (an injected
  // <script> would be refused by script-src 'self').
  await page.evaluate(`${axe.source}\n;true`);
  return page.evaluate(async () => {
    const result = await window.axe!.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
}

export interface FocusStop {
  /** What has focus: tag, id or name, text. */
  element: string;
  /** The indicator's colours (outline, then any box-shadow ring), as computed. */
  rings: string[];
  /** The background the indicator sits on: the nearest ancestor's opaque background colour. */
  background: string;
  /** The contrast of the outline (at least 2 px wide) against that background (WCAG relative luminance); 0 without. */
  ratio: number;
}

/**
 * Tabs through the page from its start until focus leaves it or comes back round (or `max` stops), measuring the
 * focus indicator at each stop: its outline's colour against the background it is drawn on.
 */
export async function focusStops(page: Page, max = 150): Promise<FocusStop[]> {
  // Focus navigation starts from the top of the page (the sign-in page's autofocus would skip what comes before).
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  const stops: FocusStop[] = [];
  const seen = new Set<unknown>();
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(measureFocus);
    if (stop === null || seen.has(stop.key)) break;
    seen.add(stop.key);
    stops.push(stop.stop);
  }
  return stops;
}

/** Runs in the page: the focused element's indicator and background, and their contrast. */
function measureFocus(): { key: string; stop: FocusStop } | null {
  const element = document.activeElement as HTMLElement | null;
  if (!element || element === document.body) return null;
  const rgba = (value: string): [number, number, number, number] | null => {
    const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(value);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
  };
  const luminance = ([r, g, b]: number[]) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  const contrast = (a: number[], b: number[]) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  };
  let background = 'rgb(255, 255, 255)';
  for (let at = element.parentElement; at; at = at.parentElement) {
    const colour = getComputedStyle(at).backgroundColor;
    if ((rgba(colour)?.[3] ?? 0) > 0.99) {
      background = colour;
      break;
    }
  }
  const style = getComputedStyle(element);
  const rings: string[] = [];
  if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) rings.push(style.outlineColor);
  for (const m of style.boxShadow.matchAll(/rgba?\([^)]*\)/g)) rings.push(m[0]);
  const outline =
    style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 ? rgba(style.outlineColor) : null;
  const ratio = outline && outline[3] > 0.99 ? contrast(outline, rgba(background)!) : 0;
  const name = element.id
    ? `#${element.id}`
    : element.getAttribute('name')
      ? `[name=${element.getAttribute('name')}]`
      : '';
  const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
  const label = `${element.tagName.toLowerCase()}${name} "${text}"`;
  const index = Array.from(document.querySelectorAll('*')).indexOf(element);
  return { key: `${index}`, stop: { element: label, rings, background, ratio: Math.round(ratio * 100) / 100 } };
}
