// Headless Chromium for the browser tests: Debian's `chromium`, installed here when missing
// (CI starts from a clean machine; nothing installed by hand survives).
import { chromium, type Browser } from 'playwright-core';
import { ensureDebianPackage } from './debian.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  ensureDebianPackage(CHROMIUM, 'chromium');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-quic'],
  });
}
