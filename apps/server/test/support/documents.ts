import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import PDFDocument from 'pdfkit';
import type { ApiClient } from './api-client.ts';

export type DocPart = { heading: string } | { text: string } | { table: string[][] };

/** A real .docx made with the `docx` package: headings, paragraphs and tables. */
export async function makeDocx(parts: DocPart[]): Promise<Buffer> {
  const children = parts.map((p) => {
    if ('heading' in p) return new Paragraph({ text: p.heading, heading: HeadingLevel.HEADING_1 });
    if ('text' in p) return new Paragraph({ children: [new TextRun(p.text)] });
    return new Table({
      rows: p.table.map(
        (row) =>
          new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) }),
      ),
    });
  });
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A real PDF made with pdfkit: one entry per page, a heading in a larger font, optionally password-protected. */
export async function makePdf(
  pages: Array<{ heading?: string; text: string }>,
  options: { userPassword?: string } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    userPassword: options.userPassword,
    pdfVersion: options.userPassword ? '1.7' : undefined,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const page of pages) {
    doc.addPage();
    if (page.heading) doc.fontSize(20).text(page.heading).moveDown();
    doc.fontSize(11).text(page.text);
  }
  doc.end();
  return done;
}

/** A PDF whose only page is a drawing: no text layer, like a scan without OCR. */
export async function makeImageOnlyPdf(): Promise<Buffer> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.rect(50, 50, 300, 200).fill('#888888');
  doc.end();
  return done;
}

const FINAL = ['ready', 'failed', 'cancelled'];

/** Polls a file until it reaches a final status (or the given one), and answers it. */
export async function waitForFile(
  client: ApiClient,
  fileId: string,
  until: string[] = FINAL,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/files/${fileId}`);
    if (res.status !== 200) throw new Error(`file ${fileId}: ${res.status} ${JSON.stringify(res.body)}`);
    if (until.includes(res.body.status)) return res.body;
    if (Date.now() > deadline)
      throw new Error(`file ${fileId} still ${res.body.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A piece of text placed on a page, as a layout program sets it: a table cell, a bullet, a heading. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size?: number;
  /** Wraps the text within this width (a table cell of several lines). */
  width?: number;
}

/** A real PDF made with pdfkit from placed texts, one array per page (pdfkit's standard Helvetica). */
export async function makeLayoutPdf(pages: PlacedText[][]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (const page of pages) {
    doc.addPage();
    for (const t of page)
      doc
        .fontSize(t.size ?? 10)
        .text(t.text, t.x, t.y, { width: t.width ?? 500, lineBreak: t.width !== undefined });
  }
  doc.end();
  return done;
}
