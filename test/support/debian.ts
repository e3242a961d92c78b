// Debian packages a test drives as integrators meet them (Chromium, LibreOffice), installed here when
// missing: CI starts from a clean machine, and nothing installed by hand survives.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Installs `pkg` with apt (as root, or through `sudo -n`) unless `file`, one of its files, is already there. */
export function ensureDebianPackage(file: string, pkg: string): void {
  if (existsSync(file)) return;
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) =>
    execFileSync(asRoot[0] ?? args[0]!, [...asRoot.slice(1), ...(asRoot.length ? args : args.slice(1))], {
      stdio: 'inherit',
    });
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
}
