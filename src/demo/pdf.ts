/**
 * A minimal, valid single-page PDF (1.4) with lines of text in Helvetica: the demo vehicle
 * history report. Written by hand so the seed needs no PDF library; the cross-reference table
 * carries exact byte offsets, so strict readers open it.
 */

function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7e]/g, '?');
}

function pdfString(text: string): string {
  return `(${ascii(text).replace(/([\\()])/g, '\\$1')})`;
}

export type PdfLine = { text: string; size?: number; bold?: boolean; gap?: number };

export function simplePdf(title: string, lines: PdfLine[]): Buffer {
  const content: string[] = ['BT', '50 780 Td'];
  let first = true;
  for (const line of lines) {
    const size = line.size ?? 11;
    const leading = line.gap ?? size * 1.5;
    if (!first) content.push(`0 -${leading.toFixed(1)} Td`);
    first = false;
    content.push(`/${line.bold ? 'F2' : 'F1'} ${size} Tf`, `${pdfString(line.text)} Tj`);
  }
  content.push('ET');
  const stream = content.join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${pdfString(title)} /Producer (Dealer platform demo seed) >>`,
  ];

  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
