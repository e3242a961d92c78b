// Cost centers, suppliers, categories and establishments written straight through the directory stores.
import { expect } from 'vitest';
import type { Db } from '../../../server/db/database.js';
import type { CostCenterRow, DirectoryType } from '../../../server/areas/directory/tables.js';
import { insertCostCenters, newCostCenter } from '../../../server/areas/directory/cost-centers/store.js';
import { insertSuppliers, newSupplier } from '../../../server/areas/directory/suppliers/store.js';
import {
  insertCategories,
  insertEstablishments,
  newCategory,
} from '../../../server/areas/directory/categories/store/categories.js';
import { TYPE_ID } from '../../../server/areas/directory/store/types.js';

const NOW = '2026-11-01T12:00:00.000Z';
let sequence = 0;
const next = () => (sequence += 1);

export async function createCostCenter(
  db: Db,
  companyId: string,
  overrides: { name?: string; responsible?: { id: string; name: string } } = {},
): Promise<CostCenterRow> {
  const row = newCostCenter(companyId, overrides.name ?? `Cost center ${next()}`, NOW, overrides.responsible ?? null);
  await insertCostCenters(db, [row]);
  return row;
}

export async function createSupplier(
  db: Db,
  companyId: string,
  overrides: { name?: string; type?: DirectoryType } = {},
) {
  const name = overrides.name ?? `Supplier ${next()} Ltda`;
  const [id] = await insertSuppliers(db, [newSupplier(companyId, name, overrides.type ?? 'CUSTOM', NOW)]);
  if (id === undefined) throw new Error('supplier not inserted');
  return { id, name, type: overrides.type ?? 'CUSTOM' };
}

export interface CreatedCategory {
  id: number;
  name: string;
  type: DirectoryType;
  establishmentIds: number[];
}

/** A category with `establishments` linked ones (names or a count); CUSTOM unless told. */
export async function createCategory(
  db: Db,
  companyId: string,
  overrides: { name?: string; type?: DirectoryType; establishments?: number | string[] } = {},
): Promise<CreatedCategory> {
  const type = overrides.type ?? 'CUSTOM';
  const name = overrides.name ?? `Category ${next()}`;
  const [id] = await insertCategories(db, [newCategory(companyId, name, type, NOW)]);
  if (id === undefined) throw new Error('category not inserted');
  const wanted = overrides.establishments ?? 0;
  const names = typeof wanted === 'number' ? Array.from({ length: wanted }, () => `Establishment ${next()}`) : wanted;
  const establishmentIds = await createEstablishments(db, companyId, id, names, type);
  return { id, name, type, establishmentIds };
}

async function createEstablishments(
  db: Db,
  companyId: string,
  categoryId: number,
  names: string[],
  type: DirectoryType = 'CUSTOM',
): Promise<number[]> {
  await insertEstablishments(
    db,
    names.map((name) => ({
      company_id: companyId,
      category_id: categoryId,
      name,
      type_id: TYPE_ID[type],
      created_at: NOW,
      updated_at: NOW,
    })),
  );
  const rows = await db
    .selectFrom('establishments')
    .select('id')
    .where('category_id', '=', categoryId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Asserts the common error body with `status`; details are strings in the directory. */
export function expectError(result: { response: Response; error?: unknown }, status: number): string[] {
  expect(result.response.status).toBe(status);
  const body = result.error as { error: string; code: number; requestId: string; details: unknown[] };
  expect(body.code).toBe(status);
  expect(body.requestId).toBe(result.response.headers.get('X-Request-Id'));
  for (const detail of body.details) expect(typeof detail).toBe('string');
  return body.details as string[];
}

interface Classification {
  categoryId?: number | null;
  costCenterId?: string | null;
}

/**
 * One banking and one credit-card transaction of the company carrying `classification`, written
 * straight into the statements tables (with the account and bill they need).
 */
export async function createClassifiedTransactions(db: Db, companyId: string, classification: Classification) {
  const n = next();
  const common = {
    company_id: companyId,
    transaction_date: '2026-11-10T13:00:00.000Z',
    description: `Compra ${n}`,
    category_code: '5541',
    category_description: 'Postos de combustível',
    brl_amount_minor: 15_990,
    iof_amount_minor: 0,
    status: 2 as const,
    notes: '',
    conciled: 0,
    conciled_at: null,
    custom_category_id: classification.categoryId ?? null,
    cost_center_id: classification.costCenterId ?? null,
    user_id: null,
    has_attachments: 0,
    created_at: NOW,
  };
  const account = await db
    .insertInto('accounts')
    .values({
      company_id: companyId,
      name: `Conta ${n}`,
      bank_code: '341',
      bank_name: 'Itaú',
      branch: '0001',
      number: `${n}-0`,
      currency: 'BRL',
      opening_balance_minor: 0,
      balance_minor: 0,
      blocked_minor: 0,
      created_at: NOW,
      updated_at: NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const banking = await db
    .insertInto('banking_transactions')
    .values({
      ...common,
      account_id: account.id,
      transaction_type_id: 1,
      transaction_type_description: 'Compra no cartão',
      transaction_type_icon: 'card',
      sub_type: 'DEBIT',
      final_card_number: '1234',
      bearer_name: 'Ana Lima',
      usd_amount_minor: null,
      usd_exchange_rate: null,
      usd_exchange_rate_date: null,
      total_amount_minor: 15_990,
      fee_service_amount_minor: 0,
      mcc_code: 5541,
      mcc_group: 55,
      mcc_description: 'Service stations',
      id_purchase_event: null,
      source_destination_name: 'Posto Ipiranga',
      place_establishment: null,
      requester_user_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const dueDate = `2027-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}`;
  await db
    .insertInto('bills')
    .values({
      company_id: companyId,
      due_date: dueDate,
      closing_date: dueDate,
      currency: 'BRL',
      total_minor: 0,
      paid_at: null,
      created_at: NOW,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const creditCardId = `01JD3Q5W2K8Z9Y7X6V5T${String(n).padStart(6, '0')}`;
  await db
    .insertInto('credit_card_transactions')
    .values({
      ...common,
      id: creditCardId,
      card_id: 'card-1',
      final_card_number: '9876',
      bearer_name: 'Ana Lima',
      merchant_name: 'Posto Ipiranga',
      mcc_code: 5541,
      amount_minor: 15_990,
      currency: 'BRL',
      exchange_rate: null,
      installment_number: null,
      installment_total: null,
      bill_due_date: dueDate,
    })
    .execute();
  return { bankingId: banking.id, creditCardId };
}

/** The classification both transactions now carry. */
export async function classificationOf(db: Db, ids: { bankingId: number; creditCardId: string }) {
  const banking = await db
    .selectFrom('banking_transactions')
    .select(['custom_category_id', 'cost_center_id'])
    .where('id', '=', ids.bankingId)
    .executeTakeFirstOrThrow();
  const card = await db
    .selectFrom('credit_card_transactions')
    .select(['custom_category_id', 'cost_center_id'])
    .where('id', '=', ids.creditCardId)
    .executeTakeFirstOrThrow();
  return { banking, card };
}
