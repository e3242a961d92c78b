// `finance`: parses the process's arguments with the command tree of `program.ts`; a failure ends the
// process with status 1 after one line on stderr.
import { failureLine, financeProgram } from './program.js';

const program = await financeProgram((err) => process.exit(err.exitCode), process.argv[2]);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(failureLine(err, process.env, Date.now()));
  process.exit(1);
}
