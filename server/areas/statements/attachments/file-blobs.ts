// Attachment contents on disk, content-addressed: <dataDir>/attachments/<aa>/<sha256>.
// A file is written to a temporary name, flushed, then renamed into place, so a reader never sees a
// partial file; the same content is stored once.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const root = (dataDir: string) => join(dataDir, 'attachments');
const pathOf = (dataDir: string, hash: string) => join(root(dataDir), hash.slice(0, 2), hash);

export async function putFile(dataDir: string, hash: string, bytes: Buffer): Promise<void> {
  const target = pathOf(dataDir, hash);
  if (
    await stat(target).then(
      () => true,
      () => false,
    )
  )
    return;
  const tmpDir = join(root(dataDir), 'tmp');
  // Uploaded files are the company's documents: folders 0700 and files 0600 when we create them.
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  await mkdir(join(root(dataDir), hash.slice(0, 2)), { recursive: true, mode: 0o700 });
  const temp = join(tmpDir, `${randomUUID()}.part`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

export const readFileBlob = (dataDir: string, hash: string): Promise<Buffer> => readFile(pathOf(dataDir, hash));
