import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's headless Chromium for the browser journeys (test tools never download a browser of their
 * own), with the flags this machine needs: no sandbox as root, and no background or update traffic.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
