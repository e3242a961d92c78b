// `npm run contract:diff [base] [head]`: the breaking-change gate. Compares the current public
// bundle with the released baseline and fails when a client built against the baseline could
// break. Two sources of verdicts:
// - optic's breaking-change ruleset (optic.ts): removed operations, status codes, response
//   properties or enum values; new required parameters or request properties; type changes;
// - contract-constraints.ts, for what optic does not check: tighter request constraints.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { requestNarrowings } from './contract-constraints.js';
import { opticCompare } from './optic.js';
import { isMain, projectRoot } from './tools.js';

export const baselinePath = resolve(projectRoot, 'openapi', 'released', 'openapi.json');
export const publicBundlePath = resolve(projectRoot, 'generated', 'openapi.public.json');

export interface ContractDiff {
  breaking: boolean;
  /** One line per breaking change: `<where>: [<rule>] <explanation>`. */
  findings: string[];
  /** Operations (`METHOD /path`) added, removed and changed. */
  operations: { added: string[]; removed: string[]; changed: string[] };
}

export const readSpec = (file: string): Record<string, unknown> => parse(readFileSync(file, 'utf8'));

/** Compares two OpenAPI documents (JSON or YAML files). */
export async function diffContracts(base: string, head: string): Promise<ContractDiff> {
  const optic = await opticCompare(base, head);
  const findings = [
    ...optic.failures.map((rule) => `${rule.where}: [${rule.name}] ${rule.error ?? ''}`.trim()),
    ...requestNarrowings(readSpec(base), readSpec(head)).map((line) => `${line} [request constraint narrowed]`),
  ];
  const operations = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  for (const endpoint of optic.endpoints) {
    const whole = endpoint.diffs.find((diff) => diff.trail === '')?.change;
    const list = whole === 'added' ? operations.added : whole === 'removed' ? operations.removed : operations.changed;
    list.push(`${endpoint.method.toUpperCase()} ${endpoint.path}`);
  }
  return { breaking: findings.length > 0, findings: [...new Set(findings)], operations };
}

async function main(): Promise<number> {
  const [base = baselinePath, head = publicBundlePath] = process.argv.slice(2);
  const show = (file: string) => relative(process.cwd(), file);
  if (!existsSync(base)) {
    console.log(`contract:diff: no released baseline at ${show(base)} yet; \`npm run contract:release\` creates it.`);
    return 0;
  }
  const diff = await diffContracts(base, head);
  for (const [change, operations] of Object.entries(diff.operations)) {
    for (const operation of operations) console.log(`${change.padEnd(8)} ${operation}`);
  }
  if (diff.breaking) {
    for (const finding of diff.findings) console.error(`✗ ${finding}`);
    console.error(
      `contract:diff: ${show(head)} breaks clients of the released contract ${show(base)}. ` +
        'Make the change additive (optional fields, new operations), or publish a new major version.',
    );
    return 1;
  }
  console.log(`contract:diff: no breaking change against ${show(base)}`);
  return 0;
}

if (isMain(import.meta.url)) process.exitCode = await main();
