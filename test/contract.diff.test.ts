// The breaking-change gate (scripts/contract-diff.ts) over fixture pairs: base.yaml is the
// released contract, each other file in test/fixtures/contract-diff/ one change to it.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffContracts, type ContractDiff } from '../scripts/contract-diff.js';
import { runTool, type ToolResult } from '../scripts/tools.js';

const fixture = (name: string) => resolve(import.meta.dirname, 'fixtures', 'contract-diff', `${name}.yaml`);
const base = fixture('base');

// [fixture, what the change does, text the verdict must name]
const breakingChanges: [string, string, RegExp][] = [
  ['remove-operation', 'removes an operation', /prevent operation removal/],
  ['remove-response-field', 'removes a response field', /cannot remove response property 'name'/],
  [
    'remove-request-enum-value',
    'removes an enum value a client may send in the body',
    /cannot remove enum option 'LARGE'/,
  ],
  [
    'remove-parameter-enum-value',
    'removes an enum value a client may send as a parameter',
    /cannot remove enum option 'CLOSED'/,
  ],
  ['remove-status-code', 'removes a status code', /must not remove response status code 409/],
  ['require-request-field', 'makes a request field required', /cannot make a request property required/],
  ['require-parameter', 'makes a parameter required', /cannot make optional query parameter 'status' required/],
  ['narrow-type', 'narrows a request field from string to integer', /'quantity' not to be narrowed/],
  ['narrow-max-length', 'lowers a request field maxLength', /name: maxLength 100 → 50/],
];
const compatibleChanges: [string, string][] = [
  ['add-optional-field', 'adds an optional request field'],
  ['add-operation', 'adds an operation'],
  ['widen-max-length', 'raises a request field maxLength'],
];

describe('contract:diff', () => {
  const verdicts = new Map<string, ContractDiff>();
  let gateCommand: ToolResult;

  beforeAll(async () => {
    const command = runTool('tsx', ['scripts/contract-diff.ts', base, fixture('remove-operation')]);
    for (const [name] of [...breakingChanges, ...compatibleChanges])
      verdicts.set(name, await diffContracts(base, fixture(name)));
    gateCommand = await command;
  }, 60_000);

  it.each(breakingChanges)(
    'when the new contract %s (%s), then the gate fails and names the change',
    (name, _what, reason) => {
      const verdict = verdicts.get(name)!;
      expect(verdict.breaking).toBe(true);
      expect(verdict.findings.join('\n')).toMatch(reason);
    },
  );

  it.each(compatibleChanges)('when the new contract %s (%s), then the gate passes', (name) => {
    const verdict = verdicts.get(name)!;
    expect(verdict.findings).toEqual([]);
    expect(verdict.breaking).toBe(false);
  });

  it('when the gate command meets a breaking change, then it exits non-zero', () => {
    expect(gateCommand.code).toBe(1);
    expect(gateCommand.stderr).toMatch(/breaks clients of the released contract/);
  });

  it('when an operation is added or removed, then the summary names it', () => {
    expect(verdicts.get('add-operation')!.operations).toEqual({
      added: ['DELETE /things/v1/things/{id}'],
      removed: [],
      changed: [],
    });
    expect(verdicts.get('remove-operation')!.operations.removed).toEqual(['GET /things/v1/things/{id}']);
  });
});
