// The generated bundles (npm run build): the public one is the internal one minus the
// operations marked x-internal, holds every operation of the interface, and leaks nothing
// that only internal operations use.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

type Operation = { operationId: string; 'x-internal'?: boolean };
type Bundle = {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
};

const load = (name: string): Bundle =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'generated', name), 'utf8'));
const publicBundle = load('openapi.public.json');
const internalBundle = load('openapi.internal.json');
const methods = ['get', 'put', 'post', 'delete', 'patch'];

const operations = (bundle: Bundle) =>
  Object.entries(bundle.paths).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => ({ key: `${method.toUpperCase()} ${path}`, ...item[method]! })),
  );
// Path parameter names are the contract's choice; the interface fixes the shape.
const shape = (key: string) => key.replace(/\{[^}]+\}/g, '{}');

const interfaceOperations = [
  'POST /oauth/token',
  'GET /statements/v1/banking',
  'PATCH /statements/v1/banking/{}',
  'GET /statements/v1/banking/{}/receipt',
  'GET /statements/v1/credit-card',
  'PATCH /statements/v1/credit-card/{}',
  'POST /attachments/v1',
  'GET /attachments/v1/content/{}',
  'GET /accounts/v1/balance',
  'GET /credit-cards/v1/bills',
  'GET /credit-cards/v1/bills/{}',
  'GET /cost-centers/v1/cost-centers',
  'POST /cost-centers/v1/cost-centers',
  'GET /cost-centers/v1/cost-centers/{}',
  'PATCH /cost-centers/v1/cost-centers/{}',
  'DELETE /cost-centers/v1/cost-centers/{}',
  'GET /suppliers/v1/suppliers',
  'POST /suppliers/v1/suppliers',
  'GET /suppliers/v1/suppliers/{}',
  'PUT /suppliers/v1/suppliers/{}',
  'DELETE /suppliers/v1/suppliers/{}',
  'GET /categories/v1/categories',
  'POST /categories/v1/categories',
  'DELETE /categories/v1/categories',
  'GET /categories/v1/categories/{}',
  'PATCH /categories/v1/categories/{}',
  'GET /users/v1/users',
  'GET /users/v1/users/{}',
  'PATCH /users/v1/users/{}',
  'DELETE /users/v1/users/{}',
  'GET /users/v1/roles',
  'POST /users/v1/invites',
  'POST /credit-cards/v1/vcns',
  'PATCH /credit-cards/v1/vcns/{}',
  'GET /credit-cards/v1/vcns/{}/reveal',
  'GET /credit-cards/v1/vcns/{}/card',
];

function referencedComponents(bundle: Bundle): Set<string> {
  const refs = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') refs.add(value);
        else walk(value);
      }
    }
  };
  walk(bundle);
  return refs;
}

describe('contract bundles', () => {
  it('when the public bundle is built, then it has no x-internal operation and no listVcnTransactions', () => {
    const found = operations(publicBundle);
    expect(found.filter((op) => op['x-internal'])).toEqual([]);
    expect(found.map((op) => op.operationId)).not.toContain('listVcnTransactions');
  });

  it('when the internal bundle is built, then it has the internal listVcnTransactions operation', () => {
    const listing = operations(internalBundle).find((op) => op.operationId === 'listVcnTransactions');
    expect(listing).toMatchObject({ key: 'GET /credit-cards/v1/vcns/{vcnId}/transactions', 'x-internal': true });
  });

  it('when both are built, then the public operations are exactly the internal ones not marked x-internal', () => {
    const internalPublic = operations(internalBundle)
      .filter((op) => !op['x-internal'])
      .map((op) => op.operationId);
    expect(
      operations(publicBundle)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(internalPublic.sort());
  });

  it('when the public bundle is built, then it holds every operation of the interface', () => {
    const present = new Set(operations(publicBundle).map((op) => shape(op.key)));
    expect(interfaceOperations.filter((key) => !present.has(key))).toEqual([]);
  });

  it('when the public bundle is built, then every component it carries is referenced (nothing internal leaks)', () => {
    const refs = referencedComponents(publicBundle);
    const unused = Object.entries(publicBundle.components ?? {})
      .filter(([kind]) => kind !== 'securitySchemes')
      .flatMap(([kind, entries]) => Object.keys(entries).map((name) => `#/components/${kind}/${name}`))
      .filter((ref) => !refs.has(ref));
    expect(unused).toEqual([]);
  });

  it('when the public bundle is read by float-based validators, then it holds no multipleOf, and every amount says x-decimal-places: 2 and "At most 2 decimal places"', () => {
    const text = JSON.stringify(publicBundle);
    expect(text).not.toContain('multipleOf');
    const amounts: Array<Record<string, unknown>> = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const object = node as Record<string, unknown>;
      if ('x-decimal-places' in object) amounts.push(object);
      Object.values(object).forEach(walk);
    };
    walk(publicBundle);
    expect(amounts.length).toBeGreaterThan(20);
    for (const amount of amounts) {
      expect(amount['x-decimal-places']).toBe(2);
      expect(String(amount.description)).toMatch(/at most 2 decimal places/i);
    }
  });

  it('when generators read the public bundle, then no schema is named Error, integer enums carry names, and no internal marker is left', () => {
    expect(Object.keys(publicBundle.components?.schemas ?? {})).not.toContain('Error');
    const text = JSON.stringify(publicBundle);
    expect(text).not.toContain('x-internal');
    const integerEnums = (text.match(/"enum":\[1,2,3\]/g) ?? []).length;
    expect(integerEnums).toBeGreaterThan(0);
    expect((text.match(/"enum":\[1,2,3\],"x-enumNames":\["CANCELED","PROCESSED","PENDING"\]/g) ?? []).length).toBe(
      integerEnums,
    );
  });
});
