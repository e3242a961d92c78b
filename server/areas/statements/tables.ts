// Row types of the statements tables (migration 0004): accounts, banking and credit-card
// transactions, bills and attachments. Money is in integer minor units; instants are UTC ISO strings
// (`2026-11-18T17:32:05.000Z`), so text order is time order; calendar dates are `YYYY-MM-DD`.
import type { Generated, Insertable, Selectable } from 'kysely';

/** 1 CANCELED, 2 PROCESSED, 3 PENDING. */
type TransactionStatus = 1 | 2 | 3;

export type AccountingSyncStatus = 'NOT_SYNCED' | 'SYNCED' | 'FAILED' | 'OUT_OF_DATE';

export interface AccountTable {
  id: Generated<number>;
  company_id: string;
  name: string;
  bank_code: string;
  bank_name: string;
  branch: string;
  number: string;
  currency: string;
  opening_balance_minor: number;
  /** Opening balance plus processed credits minus processed debits. */
  balance_minor: number;
  /** Sum of pending debits. */
  blocked_minor: number;
  created_at: string;
  updated_at: string;
}

export interface BankingTransactionTable {
  id: Generated<number>;
  company_id: string;
  account_id: number;
  transaction_type_id: number;
  transaction_type_description: string;
  transaction_type_icon: string;
  /** 'DEBIT' | 'CREDIT' */
  sub_type: string;
  status: TransactionStatus;
  final_card_number: string | null;
  bearer_name: string | null;
  transaction_date: string;
  brl_amount_minor: number;
  usd_amount_minor: number | null;
  usd_exchange_rate: number | null;
  usd_exchange_rate_date: string | null;
  total_amount_minor: number;
  iof_amount_minor: number;
  fee_service_amount_minor: number;
  mcc_code: number | null;
  mcc_group: number | null;
  mcc_description: string | null;
  id_purchase_event: number | null;
  source_destination_name: string;
  place_establishment: string | null;
  description: string;
  notes: string;
  /** 0 or 1. */
  conciled: number;
  conciled_at: string | null;
  category_code: string;
  category_description: string;
  custom_category_id: number | null;
  cost_center_id: string | null;
  user_id: string | null;
  requester_user_id: string | null;
  /** 0 or 1: at least one uploaded attachment. */
  has_attachments: number;
  created_at: string;
  /** The `finance ingest` run that loaded the row (migration 0010); null for other rows. */
  ingest_run_id?: string | null;
  /** The company's statement version of the row's creation and of its latest change (migration 0016: the change feeds). */
  created_seq?: number;
  change_seq?: number;
  /** The row's search signature, low and high 52 bits (migration 0032; -1 while not known). */
  search_sig_lo?: number;
  search_sig_hi?: number;
  /** The caller's metadata, a JSON object of strings (migration 0041). */
  metadata: Generated<string>;
  /** The ERP's accounting sync state (migration 0042, POST /accounting/v1/syncs). */
  sync_status: Generated<AccountingSyncStatus>;
  sync_reference_id: string | null;
  sync_error: string | null;
  synced_at: string | null;
}

export interface CreditCardTransactionTable {
  /** ULID. */
  id: string;
  company_id: string;
  card_id: string;
  final_card_number: string;
  bearer_name: string;
  transaction_date: string;
  description: string;
  merchant_name: string;
  mcc_code: number;
  category_code: string;
  category_description: string;
  amount_minor: number;
  currency: string;
  brl_amount_minor: number;
  exchange_rate: number | null;
  iof_amount_minor: number;
  installment_number: number | null;
  installment_total: number | null;
  status: TransactionStatus;
  /** The bill this record is charged on (`bills.due_date`). */
  bill_due_date: string;
  notes: string;
  conciled: number;
  conciled_at: string | null;
  custom_category_id: number | null;
  cost_center_id: string | null;
  user_id: string | null;
  has_attachments: number;
  created_at: string;
  /** The `finance ingest` run that loaded the row (migration 0010); null for other rows. */
  ingest_run_id?: string | null;
  /** The company's statement version of the row's creation and of its latest change (migration 0016: the change feeds). */
  created_seq?: number;
  change_seq?: number;
  /** The row's search signature, low and high 52 bits (migration 0032; -1 while not known). */
  search_sig_lo?: number;
  search_sig_hi?: number;
  /** The caller's metadata, a JSON object of strings (migration 0041). */
  metadata: Generated<string>;
  /** The ERP's accounting sync state (migration 0042, POST /accounting/v1/syncs). */
  sync_status: Generated<AccountingSyncStatus>;
  sync_reference_id: string | null;
  sync_error: string | null;
  synced_at: string | null;
}

export interface IngestRunTable {
  id: string;
  company_id: string;
  status: 'LOADING' | 'DONE';
  started_at: string;
  /** Renewed after every chunk; a LOADING run silent for long was abandoned by a dead process. */
  heartbeat_at: string;
  /** PostgreSQL: the change number reserved for the run's rows before its closing transaction (migration 0016). */
  change_seq?: number | null;
  /** The change number of the run's rows while some of their created events are not recorded yet (migration 0031). */
  events_seq?: number | null;
  /** The last banking id (in id order) whose created event is recorded. */
  events_banking_after?: number;
  /** The last credit-card id whose created event is recorded. */
  events_card_after?: string;
  /** The ingest's time, which its events carry. */
  events_at?: string | null;
  /** The `statement.ingested` event's object (JSON), recorded after the created events. */
  events_summary?: string | null;
}

/** Where a staged row belongs: its ingest run and its place in the run (migration 0013). */
interface Staged {
  run_id: string;
  seq: number;
}

/** A banking row of an ingest run that has not finished; moved into banking_transactions when it does. */
/** A banking row's columns as written (not its id and bookkeeping numbers): the staging copy and the move (store/ingest-staging.ts), the item's columns (store/banking-page.ts). */
export const BANKING_COLUMNS = [
  'company_id',
  'account_id',
  'transaction_type_id',
  'transaction_type_description',
  'transaction_type_icon',
  'sub_type',
  'status',
  'final_card_number',
  'bearer_name',
  'transaction_date',
  'brl_amount_minor',
  'usd_amount_minor',
  'usd_exchange_rate',
  'usd_exchange_rate_date',
  'total_amount_minor',
  'iof_amount_minor',
  'fee_service_amount_minor',
  'mcc_code',
  'mcc_group',
  'mcc_description',
  'id_purchase_event',
  'source_destination_name',
  'place_establishment',
  'description',
  'notes',
  'conciled',
  'conciled_at',
  'category_code',
  'category_description',
  'custom_category_id',
  'cost_center_id',
  'user_id',
  'requester_user_id',
  'has_attachments',
  'created_at',
] as const;
/** The columns the ERP's write-back keeps (migrations 0041, 0042): read with every item, never ingested. */
export const ERP_COLUMNS = ['metadata', 'sync_status', 'sync_reference_id', 'sync_error', 'synced_at'] as const;
/** The ERP's columns as a row reads them. */
export interface ErpState {
  metadata: string;
  sync_status: AccountingSyncStatus;
  sync_reference_id: string | null;
  sync_error: string | null;
  synced_at: string | null;
}
/** The search signature's columns (server/lib/search-signature.ts), written with the row, never shown. */
export const SIGNATURE_COLUMNS = ['search_sig_lo', 'search_sig_hi'] as const;
/** A credit-card row's columns as written (not its bookkeeping numbers). */
export const CREDIT_CARD_COLUMNS = [
  'id',
  'company_id',
  'card_id',
  'final_card_number',
  'bearer_name',
  'transaction_date',
  'description',
  'merchant_name',
  'mcc_code',
  'category_code',
  'category_description',
  'amount_minor',
  'currency',
  'brl_amount_minor',
  'exchange_rate',
  'iof_amount_minor',
  'installment_number',
  'installment_total',
  'status',
  'bill_due_date',
  'notes',
  'conciled',
  'conciled_at',
  'custom_category_id',
  'cost_center_id',
  'user_id',
  'has_attachments',
  'created_at',
] as const;
export type StagedBankingTable = Omit<
  BankingTransactionTable,
  'id' | 'ingest_run_id' | 'created_seq' | 'change_seq' | (typeof ERP_COLUMNS)[number]
> &
  Staged & {
    /** SQLite: the id taken ahead for the row (server/db/keys-ahead.ts); null on PostgreSQL, which numbers it as it moves. */
    id: number | null;
  };
/** A credit-card row of an ingest run that has not finished; moved into credit_card_transactions when it does. */
export type StagedCreditCardTable = Omit<
  CreditCardTransactionTable,
  'ingest_run_id' | 'created_seq' | 'change_seq' | (typeof ERP_COLUMNS)[number]
> &
  Staged & {
    /** SQLite: the rowid taken ahead for the row (migration 0037); null on PostgreSQL. */
    row_key: number | null;
  };

export interface BillTable {
  company_id: string;
  due_date: string;
  closing_date: string;
  currency: string;
  /** Sum of the processed records' brl_amount_minor. */
  total_minor: number;
  paid_at: string | null;
  created_at: string;
}

type AttachmentStatus = 'PENDING' | 'UPLOADED';

export interface AttachmentTable {
  /** UUID v4. */
  id: string;
  company_id: string;
  banking_transaction_id: number | null;
  credit_card_transaction_id: string | null;
  name: string;
  content_type: string;
  status: AttachmentStatus;
  size_bytes: number | null;
  /** Hex SHA-256 of the content: its address in the blob store. */
  sha256: string | null;
  created_at: string;
  upload_expires_at: string;
  uploaded_at: string | null;
}

/** Attachment contents kept in the database when no data folder is configured (tests). */
export interface AttachmentBlobTable {
  sha256: string;
  content: Buffer;
  size_bytes: number;
  created_at: string;
}

export type AccountRow = Selectable<AccountTable>;
export type BankingTransactionRow = Selectable<BankingTransactionTable>;
export type NewBankingTransaction = Insertable<BankingTransactionTable>;
export type CreditCardTransactionRow = Selectable<CreditCardTransactionTable>;
export type NewCreditCardTransaction = Insertable<CreditCardTransactionTable>;
export type BillRow = Selectable<BillTable>;
export type AttachmentRow = Selectable<AttachmentTable>;

/** The key of every ingested line (`finance ingest` skips lines already stored). */
export interface IngestedLineTable {
  company_id: string;
  line_key: string;
  statement: 'banking' | 'credit-card';
  ingested_at: string;
  /** The run that wrote the key (migration 0037): while it is loading, the line is not ingested yet. */
  run_id: string | null;
}

/** A running statement export (server/areas/statements/exports/leases.ts): at most N per company. */
export interface ExportLeaseTable {
  id: string;
  company_id: string;
  /** Epoch milliseconds; a lease not renewed by then belongs to a process that died. */
  expires_at: number;
}

/** The identity of this store's history (migration 0018): one row; a restored copy gets a new one. */
export interface StatementHistoryTable {
  id: string;
  started_at: string;
}

/** A transaction removed from its statement (migration 0018): the feeds answer its id once in `removed`. */
export interface StatementRemovalTable {
  company_id: string;
  banking_transaction_id: number | null;
  credit_card_transaction_id: string | null;
  /** The banking row's account, the card row's card: the feeds' filters. */
  account_id: number | null;
  card_id: string | null;
  /** The change number of the removal. */
  change_seq: number;
  removed_at: string;
}

/** A corporate card (migration 0019): the `card_id` of the credit-card statement's records, per company. */
export interface CardTable {
  company_id: string;
  /** UUID, lower case: the records' `card_id`. */
  id: string;
  type: 'PHYSICAL' | 'VIRTUAL';
  status: 'ACTIVATED' | 'BLOCKED' | 'CANCELLED' | 'INACTIVATED';
  last4: string;
  /** The name printed on the card (the records' `bearer_name`). */
  holder_name: string;
  name: string;
  product_name: string;
  responsible_user_id: string | null;
  cost_center_id: string | null;
  purpose: string | null;
  /** `YYYY-MM-DD`, the last day of the expiry month. */
  expiration_date: string;
  /** The reason of the block in force; null when the card is not blocked or none was given. */
  block_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type CardRow = Selectable<CardTable>;
export type NewCard = Insertable<CardTable>;

export interface StatementsTables {
  cards: CardTable;
  accounts: AccountTable;
  banking_transactions: BankingTransactionTable;
  credit_card_transactions: CreditCardTransactionTable;
  bills: BillTable;
  attachments: AttachmentTable;
  attachment_blobs: AttachmentBlobTable;
  ingest_runs: IngestRunTable;
  ingest_banking_rows: StagedBankingTable;
  ingest_credit_card_rows: StagedCreditCardTable;
  ingested_lines: IngestedLineTable;
  export_leases: ExportLeaseTable;
  statement_history: StatementHistoryTable;
  statement_removals: StatementRemovalTable;
}
