// Attachments: declare (signed upload URL, 15 minutes), upload (the URL's target), download.
import { defineHandlers } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { SANDBOX_CSP } from '../../../kit/csp.js';
import { ApiError, badRequest, notFound } from '../../../kit/errors.js';
import { signToken, verifyToken } from '../../../kit/signed-url.js';
import type { Config } from '../../../config.js';
import { formatInstant } from '../../../lib/time.js';
import { contentPath } from '../present.js';
import {
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  contentDisposition,
  looksLike,
  mediaType,
  type AttachmentType,
} from './content-types.js';
import { putFile, readFileBlob, sha256 } from './file-blobs.js';
import { companyTimeZone } from '../../auth/public.js';
import {
  completeUpload,
  declareAttachment,
  findAttachment,
  findUploaded,
  readDbBlob,
  type TransactionRef,
} from './store.js';

const UPLOAD_TTL_MS = 15 * 60 * 1000;
const PURPOSE = 'attachment-upload';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function transactionRef(statement: 'banking' | 'credit-card', id: string): TransactionRef {
  if (statement === 'banking') {
    if (!/^[1-9][0-9]{0,15}$/.test(id))
      throw badRequest('transactionId must be the integer id of a banking transaction', [
        'transactionId: must be the integer id of a banking transaction',
      ]);
    return { statement, id: Number(id) };
  }
  if (!ULID.test(id))
    throw badRequest('transactionId must be the ULID of a credit-card transaction', [
      'transactionId: must be the ULID of a credit-card transaction',
    ]);
  return { statement, id };
}

/**
 * The checks of an upload that need no body: a genuine, unexpired URL of a pending attachment
 * (single use) and the declared Content-Type. Run before the body is read (see upload-gate.ts)
 * and again by the handler.
 */
export async function admitUpload(
  db: Db,
  secrets: Pick<Config['secrets'], 'urls' | 'urlsPrevious'>,
  token: string,
  contentType: string | undefined,
  now: Date,
) {
  const sent = mediaType(contentType);
  if (!ATTACHMENT_TYPES.includes(sent as AttachmentType)) {
    throw new ApiError(415, `Unsupported Content-Type: send one of ${ATTACHMENT_TYPES.join(', ')}`);
  }
  const claims = verifyToken(
    secrets,
    PURPOSE,
    token,
    now,
    {
      invalid: 'The upload URL is not valid',
      expired: 'The upload URL expired; declare the attachment again',
    },
    'uploadToken',
  );
  const attachment = typeof claims.a === 'string' ? await findAttachment(db, claims.a) : undefined;
  if (!attachment) throw notFound('Attachment not found');
  if (attachment.status === 'UPLOADED')
    throw new ApiError(409, 'The attachment was already uploaded', ['the attachment was already uploaded']);
  if (sent !== attachment.content_type) {
    throw badRequest(`Content-Type must be the declared type ${attachment.content_type}`, [
      `Content-Type: ${sent || 'none'} was sent, ${attachment.content_type} was declared`,
    ]);
  }
  return attachment;
}

export const handlers = defineHandlers({
  createAttachment: async ({ body }, { db, auth, clock, config }) => {
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + UPLOAD_TTL_MS);
    const ref = transactionRef(body.statement, body.transactionId);
    const id = await declareAttachment(db, auth.companyId, ref, { name: body.name, type: body.type }, now, expiresAt);
    const token = signToken(config.secrets, PURPOSE, { a: id }, expiresAt);
    return {
      status: 201,
      headers: { Location: contentPath(id) },
      body: {
        id,
        uploadUrl: `${config.baseUrl}/attachments/v1/uploads/${token}`,
        expiresAt: formatInstant(expiresAt, auth.timeZone),
      },
    };
  },

  uploadAttachmentContent: async ({ params, body }, { db, clock, config, req, actor }) => {
    const now = clock.now();
    const attachment = await admitUpload(db, config.secrets, params.uploadToken, req.get('Content-Type'), now);
    const sent = attachment.content_type;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    if (bytes.length === 0) throw badRequest('The file is empty');
    if (bytes.length > MAX_ATTACHMENT_BYTES) throw new ApiError(413, 'The file is larger than 10 MiB');
    if (!ATTACHMENT_TYPES.includes(sent as AttachmentType) || !looksLike(sent as AttachmentType, bytes)) {
      throw badRequest(`The content is not a valid ${sent} file`, [
        `body: does not start with the signature of ${sent}`,
      ]);
    }
    const hash = sha256(bytes);
    if (config.dataDir) await putFile(config.dataDir, hash, bytes);
    const done = await completeUpload(
      db,
      attachment,
      { sha256: hash, size: bytes.length, blob: config.dataDir ? undefined : bytes },
      now,
      actor,
    );
    const timeZone = (await companyTimeZone(db, done.company_id)) ?? 'America/Sao_Paulo';
    return {
      status: 200,
      body: {
        id: done.id,
        name: done.name,
        type: done.content_type as AttachmentType,
        size: bytes.length,
        transactionId: String(done.banking_transaction_id ?? done.credit_card_transaction_id),
        statement: done.banking_transaction_id !== null ? 'banking' : 'credit-card',
        uploadedAt: formatInstant(done.uploaded_at!, timeZone),
        _links: { content: { href: contentPath(done.id), rel: 'content' } },
      },
    };
  },

  getAttachmentContent: async ({ params }, { db, auth, config }) => {
    const attachment = await findUploaded(db, auth.companyId, params.attachmentId.toLowerCase());
    if (!attachment?.sha256) throw notFound('Attachment not found');
    // Seeded files live in the database even when a data folder is configured.
    const content =
      (config.dataDir ? await readFileBlob(config.dataDir, attachment.sha256).catch(() => undefined) : undefined) ??
      (await readDbBlob(db, attachment.sha256));
    if (!content) throw new Error(`attachment ${attachment.id}: content ${attachment.sha256} is missing`);
    return {
      status: 200,
      raw: content,
      contentType: attachment.content_type,
      headers: {
        'Content-Disposition': contentDisposition('attachment', attachment.name),
        ETag: `"${attachment.sha256}"`,
        // A caller's file, served so no browser runs or sniffs it (nosniff is on every response).
        'Cache-Control': 'private, no-store',
        'Content-Security-Policy': SANDBOX_CSP,
      },
    };
  },
});
