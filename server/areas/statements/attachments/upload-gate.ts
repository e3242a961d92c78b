// Signed upload URLs are checked before a byte of the body is read: a made-up, expired or used
// URL, a wrong Content-Type or a declared length over the limit is answered at once, and the
// connection is closed instead of reading (or draining) the body.
import type { Request, Response } from 'express';
import type { Preflight, Preflights, Services } from '../../../kit/handler.js';
import { ApiError } from '../../../kit/errors.js';
import { MAX_ATTACHMENT_BYTES } from './content-types.js';
import { admitUpload } from './handlers.js';

/** The shape of an issued token (the contract's `uploadToken` pattern and length), as the receipt link's. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 512;

/** The attachments' preflights: the upload's, before a byte of the file is read. */
export const preflights: Preflights = { uploadAttachmentContent: (services) => uploadGate(services) };

function uploadGate({ db, clock, config }: Services): Preflight {
  return async (req, res, params) => {
    const token = params.uploadToken ?? '';
    try {
      // A token not of the issued shape is a 400, as on the receipt link; a well-formed token that
      // does not verify (altered, expired) is a 403 (admitUpload).
      if (token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) {
        throw new ApiError(
          400,
          'uploadToken is not of the issued shape: use the uploadUrl exactly as issued',
          ['uploadToken: not of the issued shape'],
          {},
          { reason: 'invalid_value', param: 'uploadToken' },
        );
      }
      const length = req.get('Content-Length');
      if (length !== undefined && Number(length) > MAX_ATTACHMENT_BYTES)
        throw new ApiError(413, 'The file is larger than 10 MiB');
      await admitUpload(db, config.secrets, token, req.get('Content-Type'), clock.now());
    } catch (err) {
      refuse(req, res);
      throw err;
    }
  };
}

/** The answer closes the connection; what the client still sends is never read. */
function refuse(req: Request, res: Response) {
  res.setHeader('Connection', 'close');
  req.pause();
  res.once('finish', () => req.socket.destroySoon());
}
