// OFX 1.0.2 (the SGML form Brazilian banks and accounting software import) of a statement, written
// in three parts so that the transactions can stream between them: the head (signon, account,
// period), one STMTTRN per transaction, the tail (ledger balance). Elements are left unclosed as
// 1.0.2 allows; aggregates are closed. Text is UTF-8 (`ENCODING:UNICODE`), with `&`, `<`, `>`
// escaped and line breaks turned into spaces.

export type OfxStatement = 'banking' | 'credit-card';

export interface OfxTransaction {
  type: 'DEBIT' | 'CREDIT';
  /** ISO 8601 with the company's offset, as the list shows it. */
  posted: string;
  /** Signed: debits negative. */
  amount: number;
  fitId: string;
  name: string;
  memo: string;
}

const HEADER = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:UNICODE',
  'CHARSET:NONE',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
  '',
  '',
].join('\r\n');

const text = (value: string, max: number) =>
  [...value.replace(/[\r\n\t]+/g, ' ').trim()]
    .slice(0, max)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/** `2026-11-18T14:32:05-03:00` → `20261118143205[-3]`; `+05:30` → `[+5.5]`. */
function ofxDateTime(iso: string): string {
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const zone = iso.slice(19);
  if (zone === 'Z' || zone === '') return `${digits}[0]`;
  const sign = zone[0] === '-' ? '-' : '+';
  const hours = Number(zone.slice(1, 3)) + Number(zone.slice(4, 6)) / 60;
  return `${digits}[${sign}${hours}]`;
}

const amount = (value: number) => value.toFixed(2);
const status = '<STATUS><CODE>0<SEVERITY>INFO</STATUS>';

export interface OfxHead {
  statement: OfxStatement;
  /** ISO 8601 date-times with the company's offset. */
  now: string;
  start: string;
  end: string;
  /** BANKACCTFROM (banking) or CCACCTFROM (credit card). */
  account: { bankId?: string; branchId?: string; accountId: string };
}

export function ofxHead({ statement, now, start, end, account }: OfxHead): string {
  const branch = account.branchId ? `<BRANCHID>${text(account.branchId, 22)}` : '';
  const signon = `<SIGNONMSGSRSV1><SONRS>${status}<DTSERVER>${ofxDateTime(now)}<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>\r\n`;
  const opening =
    statement === 'banking'
      ? `<BANKMSGSRSV1><STMTTRNRS><TRNUID>0${status}<STMTRS><CURDEF>BRL\r\n<BANKACCTFROM><BANKID>${text(account.bankId ?? '0000', 9)}${branch}<ACCTID>${text(account.accountId, 22)}<ACCTTYPE>CHECKING</BANKACCTFROM>\r\n`
      : `<CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>0${status}<CCSTMTRS><CURDEF>BRL\r\n<CCACCTFROM><ACCTID>${text(account.accountId, 22)}</CCACCTFROM>\r\n`;
  return `${HEADER}<OFX>\r\n${signon}${opening}<BANKTRANLIST><DTSTART>${ofxDateTime(start)}<DTEND>${ofxDateTime(end)}\r\n`;
}

export function ofxTransactions(transactions: readonly OfxTransaction[]): string {
  let out = '';
  for (const t of transactions) {
    out +=
      `<STMTTRN><TRNTYPE>${t.type}<DTPOSTED>${ofxDateTime(t.posted)}<TRNAMT>${amount(t.amount)}` +
      `<FITID>${text(t.fitId, 255)}<NAME>${text(t.name, 32) || '-'}` +
      (t.memo.trim() ? `<MEMO>${text(t.memo, 255)}` : '') +
      '</STMTTRN>\r\n';
  }
  return out;
}

export function ofxTail(statement: OfxStatement, balance: number, now: string): string {
  const close =
    statement === 'banking' ? '</STMTRS></STMTTRNRS></BANKMSGSRSV1>' : '</CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1>';
  return `</BANKTRANLIST><LEDGERBAL><BALAMT>${amount(balance)}<DTASOF>${ofxDateTime(now)}</LEDGERBAL>${close}\r\n</OFX>\r\n`;
}
