// `npm run lint:spec`: Redocly lint (rules in redocly.yaml) plus the file rules of
// contract-files.ts. Fails on any error and on any warning: a warning that is right for this
// API is switched off or ignored in redocly.yaml with its reason, never left standing.
import { contractFileProblems } from './contract-files.js';
import { isMain, runTool, withoutNoise } from './tools.js';

/** Lints the contract, prints the findings, and answers whether it is clean. */
export async function lintContract(): Promise<boolean> {
  // The internal API is the whole contract; the public one is the same files minus x-internal.
  const lint = await runTool('redocly', ['lint', 'internal', '--format=stylish', '--max-problems=500']);
  const output = withoutNoise(lint.stdout + lint.stderr).trim();
  const warnings = Number(/You have (\d+) warnings?/.exec(output)?.[1] ?? 0);
  const fileProblems = contractFileProblems();

  if (lint.code !== 0 || warnings > 0) console.error(output);
  for (const problem of fileProblems) console.error(`contract files: ${problem}`);

  const clean = lint.code === 0 && warnings === 0 && fileProblems.length === 0;
  console.error(clean ? 'contract lint: no errors, no warnings' : 'contract lint failed');
  return clean;
}

if (isMain(import.meta.url) && !(await lintContract())) process.exitCode = 1;
