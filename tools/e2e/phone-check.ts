/**
 * What every page must pass on a phone (issue 28): no wider than the screen, and no serious or
 * critical axe-core finding. Shared by the storefront's and the back office's phone journeys.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { WORKSPACE_ROOT } from '../paths';

/** The two phones every page is tried on: a small Android phone and a common large one. */
export const PHONES = [
  { width: 360, height: 640 },
  { width: 390, height: 844 },
] as const;

const axeSource = readFileSync(
  createRequire(path.join(WORKSPACE_ROOT, 'package.json')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * How far the page on screen sticks out sideways, once it has settled (a layout that is still
 * changing, a drawer closing, gets up to 10 s: a busy CI machine re-lays a 1280 px page out at 390 px
 * slowly), with the element sticking out furthest; null if none.
 */
export async function widthProblem(page: Page, what: string): Promise<string | null> {
  await page
    .waitForFunction(
      '() => document.documentElement.scrollWidth <= document.documentElement.clientWidth',
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  // Run in the page (written as source: the tools compile without the DOM's types).
  const { scroll, client, widest } = await page.evaluate<{
    scroll: number;
    client: number;
    widest: string;
  }>(`(() => {
    const client = document.documentElement.clientWidth;
    // The element sticking out furthest, to say which one makes the page wide.
    let widest = '';
    let right = client;
    const clipped = (el) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect().right;
      if (r <= right + 0.5 || clipped(el)) continue;
      if (r > right + 0.5) {
        right = r;
        const name = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
        const box = el.getBoundingClientRect();
        widest = el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0] +
          (name ? ' "' + name + '"' : '') + ' (' + Math.round(box.left) + '–' + Math.round(r) + ' px)';
      }
    }
    return { scroll: document.documentElement.scrollWidth, client, widest };
  })()`);
  return scroll > client
    ? `${what}: ${scroll} px wide on a ${client} px screen; widest ${widest}`
    : null;
}

/** The problems of the page on screen, as `<what>: <problem>` lines (none when it passes). */
export async function phoneProblems(page: Page, what: string): Promise<string[]> {
  const problems: string[] = [];
  const wide = await widthProblem(page, what);
  if (wide) problems.push(wide);
  if (!(await page.evaluate<boolean>(`'axe' in window`))) await page.evaluate(axeSource);
  const violations = await page.evaluate<string[]>(`(async () => {
    const result = await window.axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' (' + v.impact + ') at ' +
        v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', '));
  })()`);
  problems.push(...violations.map((v) => `${what}: ${v}`));
  return problems;
}
