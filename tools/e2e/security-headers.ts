/**
 * The apps' production security headers (tools/docker/spa-security-headers.conf, which the nginx
 * image includes), filled in the way the container's start-up script fills them, so the browser
 * journeys run the apps under the same Content-Security-Policy and framing protection.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import { WORKSPACE_ROOT } from '../paths';

export const SPA_SECURITY_HEADERS_FILE = path.join(
  WORKSPACE_ROOT,
  'tools/docker/spa-security-headers.conf',
);

/** Each `add_header Name "value" always;` of the file, with the API's and images' origins. */
export function spaSecurityHeaders(apiOrigin: string, imagesOrigin = ''): Record<string, string> {
  const headers: Record<string, string> = {};
  const text = readFileSync(SPA_SECURITY_HEADERS_FILE, 'utf8');
  for (const [, name, value] of text.matchAll(/^add_header\s+([\w-]+)\s+"([^"]*)"\s+always;/gm)) {
    headers[name!] = value!
      .replaceAll('__SPC_CSP_API__', apiOrigin)
      .replaceAll('__SPC_CSP_IMAGES__', imagesOrigin)
      .replace(/ {2,}/g, ' ')
      .replace(/ ;/g, ';');
  }
  return headers;
}

/**
 * Records every Content-Security-Policy violation the context's pages meet (directive, what was
 * blocked, where, on which page); answers how to read them from a page.
 */
export async function watchPolicyViolations(
  context: BrowserContext,
): Promise<(page: Page) => Promise<string[]>> {
  // Runs in the page (this file has no DOM types: the page's globals are described here).
  interface Violation {
    violatedDirective: string;
    blockedURI: string;
    sourceFile: string;
    lineNumber: number;
  }
  interface PageGlobals {
    __cspViolations: string[];
    document: { addEventListener(type: string, listener: (e: Violation) => void): void };
    location: { pathname: string };
  }
  await context.addInitScript(() => {
    const page = globalThis as unknown as PageGlobals;
    page.__cspViolations = [];
    page.document.addEventListener('securitypolicyviolation', (e) =>
      page.__cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} on ${page.location.pathname}`,
      ),
    );
  });
  return (page) => page.evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations);
}
