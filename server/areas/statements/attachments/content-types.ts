// The file types an attachment may have, and a check that the bytes really are of the declared type.

export const ATTACHMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/** True when `bytes` start with the signature of `type`. */
export function looksLike(type: AttachmentType, bytes: Buffer): boolean {
  switch (type) {
    case 'application/pdf':
      return startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]); // %PDF-
    case 'image/png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'image/heic':
      // ISO base media file: a box size, then `ftyp` and a HEIF brand.
      return (
        bytes.length >= 12 &&
        bytes.toString('latin1', 4, 8) === 'ftyp' &&
        HEIC_BRANDS.has(bytes.toString('latin1', 8, 12))
      );
  }
}

/** `image/png; charset=x` → `image/png` */
export const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/** A Content-Disposition value that survives any file name (RFC 6266 / RFC 5987). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
