import 'server-only';
import { BadRequestError, ValidationError } from '@/lib/http';
import type { UploadedFile } from './leads.commands';
import { FILE_MESSAGES, MAX_FILE_BYTES, MAX_FILES } from './form-rules/messages';

/**
 * Files of POST /api/leads/with-files. The type is read from the file's first bytes, never taken
 * from the client, and only images and PDFs are kept; the site never serves them (they go to the
 * dealer as email attachments), so nothing uploaded can run in the site's origin.
 */

/** The whole multipart body: five files of 10 MB do not all fit, which the answer says (413). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** The content type of a file from its signature, or null when it is not an accepted kind. */
export function sniffContentType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp' && ['heic', 'heix', 'mif1', 'msf1', 'hevc'].includes(ascii(8, 12))) return 'image/heic';
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

/** A file name safe to put in an email header: base name, plain characters, at most 100 long. */
export function safeFileName(name: string, contentType: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^A-Za-z0-9._\- ]+/g, '_').replace(/^\.+/, '').slice(-100).trim();
  const extension = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/heic': '.heic', 'application/pdf': '.pdf' }[contentType] ?? '';
  const stem = cleaned.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'file';
  return `${stem}${extension}`;
}

/** The `lead` JSON and the checked files of a multipart body. */
export async function parseLeadUpload(body: Buffer, contentType: string | null): Promise<{ lead: unknown; files: UploadedFile[] }> {
  if (!contentType || !/^multipart\/form-data;\s*boundary=/i.test(contentType)) throw new BadRequestError(FILE_MESSAGES.multipart);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw new BadRequestError(FILE_MESSAGES.multipart);
  }
  const leadField = form.get('lead');
  if (typeof leadField !== 'string') throw new BadRequestError(FILE_MESSAGES.multipart, { lead: 'is required' });
  let lead: unknown;
  try {
    lead = JSON.parse(leadField);
  } catch {
    throw new BadRequestError(FILE_MESSAGES.multipart, { lead: 'must be JSON' });
  }
  const entries = [...form.entries()].filter(([key]) => key !== 'lead');
  const uploads = entries.map(([, value]) => value).filter((value): value is File => typeof value !== 'string');
  if (uploads.length > MAX_FILES) throw new ValidationError({ files: FILE_MESSAGES.tooMany });
  const files: UploadedFile[] = [];
  for (const [index, file] of uploads.entries()) {
    if (file.size > MAX_FILE_BYTES) throw new ValidationError({ [`files.${index}`]: FILE_MESSAGES.tooLarge });
    const content = Buffer.from(await file.arrayBuffer());
    if (content.length === 0) throw new ValidationError({ [`files.${index}`]: FILE_MESSAGES.empty });
    const type = sniffContentType(content);
    if (!type) throw new ValidationError({ [`files.${index}`]: FILE_MESSAGES.type });
    files.push({ fileName: safeFileName(file.name, type), contentType: type, content });
  }
  return { lead, files };
}
