import { pdfToBlocks } from './pdf-blocks.ts';

/**
 * A one-page PDF with a line in Helvetica, one of the 14 standard fonts, without font data in the file: reading it
 * loads pdf.js, its in-process worker and the standard-font data, as most PDFs need.
 */
function warmUpPdf(): Buffer {
  const text = 'BT /F1 12 Tf 72 720 Td (Werkwissen) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let pdf = '%PDF-1.7\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Reads a small PDF, so that the first document of a new parser process does not wait for pdf.js to load (about a
 * second of a 2-core machine). Answers the text read, which is "Werkwissen" when pdf.js works.
 */
export async function warmUpReaders(): Promise<string> {
  const { blocks } = await pdfToBlocks(warmUpPdf());
  return blocks.map((b) => (b.kind === 'table' ? '' : b.text)).join(' ');
}
