// Under npm (`npm start`, `npx finance serve`, `npm run …`) the server lives as long as the npm that
// started it. npm passes a SIGTERM on to the shell it ran the command in, and a shell that does not
// exec its last command (dash, Debian's sh) dies of it without passing it on: the server would be
// re-parented and keep serving, holding the port. `npm start` runs `exec node …`, so the server takes
// the shell's place and gets npm's SIGTERM itself; `npx` runs no script of ours, so a server started
// by npm stops as on SIGTERM (draining) once the process that started it is gone. Outside npm nothing
// is watched: a server started in the background of a shell that then exits keeps serving.
import { warnLine } from '../lib/warn.js';

/** How often the parent is looked at: a few system calls a second. */
const POLL_MS = 200;

/** After `parent` (the process that started this one) is gone, SIGTERM to this process, once. */
export function stopWithNpmParent(parent: number, env: NodeJS.ProcessEnv = process.env): void {
  if (env.npm_lifecycle_event === undefined) return;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    warnLine(`the process that started this one (pid ${parent}, under npm) is gone: stopping as on SIGTERM`);
    process.kill(process.pid, 'SIGTERM');
  }, POLL_MS);
  timer.unref();
}
