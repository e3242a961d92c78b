// Walks the bundled contract: every operation has a handler and a test suite named after it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contract } from '../server/contract/index.js';
import { operations } from '../server/operations.js';

const routes = contract().operations;
const testSources = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => readFileSync(join('test', file), 'utf8'))
  .join('\n');

describe('the contract', () => {
  it('when bundled, then every operation has a handler, and no handler is left without an operation', () => {
    const ids = routes.map((r) => r.operationId).sort();
    expect(Object.keys(operations).sort()).toEqual(ids);
  });

  it.each(routes.map((r) => [r.operationId, r.method, r.path]))(
    'when %s (%s %s) is in the contract, then a test suite is named after it',
    (operationId) => {
      expect(testSources).toMatch(new RegExp(`describe\\((['"\`])${operationId}[\\s'"\`]`));
    },
  );
});
