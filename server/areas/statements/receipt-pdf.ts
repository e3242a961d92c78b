// The PDF receipt of a processed banking transaction (pdfkit, standard fonts, A4). pdfkit and its fonts
// load on the first receipt, not with every process (a tenth of a `finance` command's start).
import { createHmac } from 'node:crypto';
import { fromMinor } from '../../lib/money.js';
import type { ReceiptData } from './store/receipt.js';
import { formatInstant } from '../../lib/time.js';

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const usd = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'USD' });
const money = (format: Intl.NumberFormat, minor: number) => format.format(fromMinor(minor)).replace(/\u00a0/g, ' ');

/** A stable code that ties the receipt to the transaction's facts; only this server can produce it. */
export function authenticationCode(secret: Buffer, t: ReceiptData): string {
  const hex = createHmac('sha256', secret)
    .update(['receipt', t.company_id, t.id, t.transaction_date, t.total_amount_minor, t.sub_type].join('|'))
    .digest('hex')
    .slice(0, 40)
    .toUpperCase();
  return hex.match(/.{5}/g)!.join('-');
}

/** `2026-11-18T14:32:05-03:00` → `18/11/2026 14:32:05 (UTC-03:00)` */
function humanDate(instant: string | Date, timeZone: string): string {
  const local = formatInstant(instant, timeZone);
  const [date, rest] = local.split('T') as [string, string];
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${rest.slice(0, 8)} (UTC${rest.slice(8)})`;
}

export async function renderReceipt(t: ReceiptData, code: string, issuedAt: Date): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Comprovante ${t.id}`,
      Author: t.company_name,
      Subject: 'Comprovante de transação',
      CreationDate: issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('Comprovante de transação');
  doc.font('Helvetica').fontSize(10).fillColor('#555').text(`${t.bank_name} (${t.bank_code})`).moveDown(1.2);
  const row = (label: string, value: string) => {
    doc.font('Helvetica').fontSize(10).fillColor('#555').text(label, { continued: false });
    doc.font('Helvetica-Bold').fontSize(11).fillColor('#000').text(value).moveDown(0.5);
  };
  row('Empresa', t.company_name);
  row('Conta', `${t.account_name} — agência ${t.branch}, conta ${t.account_number}`);
  row('Data e hora', humanDate(t.transaction_date, t.time_zone));
  row('Tipo', `${t.transaction_type_description} (${t.sub_type === 'DEBIT' ? 'débito' : 'crédito'})`);
  row('Descrição', t.description);
  row(t.sub_type === 'DEBIT' ? 'Favorecido' : 'Pagador', t.source_destination_name);
  if (t.final_card_number) row('Cartão', `final ${t.final_card_number}${t.bearer_name ? ` — ${t.bearer_name}` : ''}`);
  if (t.place_establishment) row('Local', t.place_establishment);
  if (t.usd_amount_minor !== null) {
    row('Valor original', money(usd, t.usd_amount_minor));
    row('Câmbio', `R$ ${(t.usd_exchange_rate ?? 0).toFixed(4).replace('.', ',')} por US$ 1,00`);
  }
  row('Valor', money(brl, t.brl_amount_minor));
  if (t.iof_amount_minor > 0) row('IOF', money(brl, t.iof_amount_minor));
  if (t.fee_service_amount_minor > 0) row('Tarifa', money(brl, t.fee_service_amount_minor));
  row('Valor total', money(brl, t.total_amount_minor));
  row('Situação', 'Processada');
  row('Identificador da transação', String(t.id));
  doc.moveDown(1);
  doc.font('Helvetica').fontSize(10).fillColor('#555').text('Autenticação');
  doc.font('Courier-Bold').fontSize(12).fillColor('#000').text(code);
  doc.moveDown(2);
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#777')
    .text(`Emitido em ${humanDate(issuedAt, t.time_zone)}. A autenticação confirma os dados acima junto ao emissor.`);
  doc.end();
  return done;
}
