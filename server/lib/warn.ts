// A warning written before any logger exists (opening the database): with NODE_ENV=production one
// JSON line in pino's shape, as every other line of a production process; otherwise plain text.
export function warnLine(message: string): void {
  process.stderr.write(
    process.env.NODE_ENV === 'production'
      ? `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg: message })}\n`
      : `warning: ${message}\n`,
  );
}
