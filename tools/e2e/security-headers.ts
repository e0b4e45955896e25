/**
 * The apps' production security headers (tools/docker/spa-security-headers.conf, which the nginx
 * image includes), filled in the way the container's start-up script fills them, so the browser
 * journeys run the apps under the same Content-Security-Policy and framing protection.
 */
import { readFileSync } from 'node:fs';
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
