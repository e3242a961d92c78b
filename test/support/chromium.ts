// Headless Chromium for the browser tests: Debian's `chromium`, installed here when missing
// (CI starts from a clean machine; nothing installed by hand survives).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) =>
    execFileSync(asRoot[0] ?? args[0]!, [...asRoot.slice(1), ...(asRoot.length ? args : args.slice(1))], {
      stdio: 'inherit',
    });
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
}

export async function launchChromium(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-quic'],
  });
}
