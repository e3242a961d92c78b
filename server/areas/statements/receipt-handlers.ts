// Receipts: a signed link valid 5 minutes, and the link's target, which renders the PDF.
import { defineHandlers } from '../../kit/handler.js';
import { conflict, notFound } from '../../kit/errors.js';
import { bankingStatus, findReceiptData } from './store/receipt.js';
import { authenticationCode, renderReceipt } from './receipt-pdf.js';
import { signToken, verifyToken } from '../../kit/signed-url.js';
import { STATUS_NAMES } from './present.js';
import { formatInstant } from '../../lib/time.js';

const RECEIPT_TTL_MS = 5 * 60 * 1000;
const PURPOSE = 'receipt';

export const receiptHandlers = defineHandlers({
  getBankingTransactionReceipt: async ({ params }, { db, auth, clock, config }) => {
    const status = await bankingStatus(db, auth.companyId, params.transactionId);
    if (status === undefined) throw notFound('Transaction not found');
    if (status !== 2) {
      throw conflict('The transaction has no receipt', [
        `only processed transactions (status 2) have a receipt; this one is ${STATUS_NAMES[status]}`,
      ]);
    }
    const expiresAt = new Date(clock.now().getTime() + RECEIPT_TTL_MS);
    const token = signToken(config.secrets, PURPOSE, { c: auth.companyId, t: params.transactionId }, expiresAt);
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: {
        url: `${config.baseUrl}/statements/v1/receipts/${token}`,
        expiresAt: formatInstant(expiresAt, auth.timeZone),
      },
    };
  },

  downloadBankingTransactionReceipt: async ({ params }, { db, clock, config }) => {
    const claims = verifyToken(
      config.secrets,
      PURPOSE,
      params.receiptToken,
      clock.now(),
      {
        invalid: 'The receipt link is not valid; request a new one',
        expired: 'The receipt link expired; request a new one',
      },
      'receiptToken',
    );
    const data =
      typeof claims.c === 'string' && typeof claims.t === 'number'
        ? await findReceiptData(db, claims.c, claims.t)
        : undefined;
    if (data?.status !== 2) throw notFound('Receipt not found');
    const pdf = await renderReceipt(data, authenticationCode(config.secrets.urls, data), clock.now());
    return {
      status: 200,
      raw: pdf,
      contentType: 'application/pdf',
      headers: {
        'Content-Disposition': `inline; filename="receipt-${data.id}.pdf"`,
        'Cache-Control': 'private, no-store',
      },
    };
  },
});
