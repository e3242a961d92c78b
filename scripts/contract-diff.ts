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
import { describeEndpointChanges, opticCompare } from './optic.js';
import { isMain, projectRoot } from './tools.js';

export const baselinePath = resolve(projectRoot, 'openapi', 'released', 'openapi.json');
export const publicBundlePath = resolve(projectRoot, 'generated', 'openapi.public.json');

export interface ContractDiff {
  breaking: boolean;
  /** One line per breaking change: `<where>: [<rule>] <explanation>`. */
  findings: string[];
  /** Operations (`METHOD /path`) added, removed and changed. */
  operations: { added: string[]; removed: string[]; changed: string[] };
  /** What changed inside the changed operations: `METHOD /path: request property x added`. */
  details: string[];
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
  const details: string[] = [];
  for (const endpoint of optic.endpoints) {
    const name = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    const whole = endpoint.diffs.find((diff) => diff.trail === '')?.change;
    if (whole === 'added') operations.added.push(name);
    else if (whole === 'removed') operations.removed.push(name);
    else {
      operations.changed.push(name);
      details.push(...describeEndpointChanges(endpoint).map((line) => `${name}: ${line}`));
    }
  }
  return { breaking: findings.length > 0, findings: [...new Set(findings)], operations, details };
}

async function main(): Promise<number> {
  const [base = baselinePath, head = publicBundlePath] = process.argv.slice(2);
  const show = (file: string) => relative(process.cwd(), file);
  if (!existsSync(base)) {
    console.log(`contract:diff: no released baseline at ${show(base)} yet; \`npm run contract:release\` creates it.`);
    return 0;
  }
  const diff = await diffContracts(base, head);
  for (const operation of diff.operations.added) console.log(`added    ${operation}`);
  for (const operation of diff.operations.removed) console.log(`removed  ${operation}`);
  for (const detail of diff.details) console.log(`changed  ${detail}`);
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
