import ExcelJS from 'exceljs';
import { strToU8, type Zippable, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

const esc = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const zip = (files: Record<string, string | Uint8Array>, stored: string[] = []) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(files).map(([name, content]) => [
          name,
          [
            typeof content === 'string' ? strToU8(content) : content,
            { level: stored.includes(name) ? 0 : 6 },
          ],
        ]),
      ) as Zippable,
    ),
  );

export interface Slide {
  title: string;
  texts: string[];
  table?: string[][];
  notes?: string;
}

const P_NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const shape = (type: string | null, paragraphs: string[]) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${type ? `<p:ph type="${type}"/>` : ''}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs
    .map((t) => `<a:p><a:r><a:t>${esc(t)}</a:t></a:r></a:p>`)
    .join('')}</p:txBody></p:sp>`;
const drawingTable = (rows: string[][]) =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="3" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${rows
    .map(
      (r) =>
        `<a:tr h="0">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${esc(c)}</a:t></a:r></a:p></a:txBody></a:tc>`).join('')}</a:tr>`,
    )
    .join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;

/** A .pptx in PresentationML as PowerPoint writes it (slides listed in show order, notes linked from each slide). */
export function makePptx(slides: Slide[], extra: Record<string, string | Uint8Array> = {}): Buffer {
  const files: Record<string, string | Uint8Array> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${slides
      .map(
        (_, i) =>
          `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`,
      )
      .join('')}</Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`,
    // Listed in reverse file order: the show order is the list's, not the file names'.
    'ppt/presentation.xml': `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${P_NS}><p:sldIdLst>${slides
      .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`)
      .join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="${REL_NS}/slide" Target="slides/slide${slides.length - i}.xml"/>`,
      )
      .join('')}</Relationships>`,
    ...extra,
  };
  slides.forEach((slide, i) => {
    const n = slides.length - i;
    files[`ppt/slides/slide${n}.xml`] =
      `<?xml version="1.0" encoding="UTF-8"?><p:sld ${P_NS}><p:cSld><p:spTree>${shape('title', [slide.title])}${shape(null, slide.texts)}${slide.table ? drawingTable(slide.table) : ''}${shape('sldNum', [String(i + 1)])}</p:spTree></p:cSld></p:sld>`;
    if (slide.notes) {
      files[`ppt/slides/_rels/slide${n}.xml.rels`] =
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${REL_NS}/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/></Relationships>`;
      files[`ppt/notesSlides/notesSlide${n}.xml`] =
        `<?xml version="1.0" encoding="UTF-8"?><p:notes ${P_NS}><p:cSld><p:spTree>${shape('sldImg', [])}${shape('body', [slide.notes])}</p:spTree></p:cSld></p:notes>`;
    }
  });
  return zip(files);
}

/** A real .xlsx written by exceljs: one sheet per entry, rows as given (the first is the header). */
/** A number with its Excel number format (`#,##0.00`), as a spreadsheet program stores a formatted price. */
export interface FormattedNumber {
  value: number;
  numFmt: string;
}

export async function makeXlsx(
  sheets: Record<string, Array<Array<string | number | FormattedNumber>>>,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = workbook.addWorksheet(name);
    for (const [r, row] of rows.entries()) {
      for (const [c, cell] of row.entries()) {
        const target = sheet.getCell(r + 1, c + 1);
        if (typeof cell === 'object') {
          target.value = cell.value;
          target.numFmt = cell.numFmt;
        } else target.value = cell;
      }
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3"';
const ODF_MIME = {
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

/** An OpenDocument package as LibreOffice writes it: `mimetype` first and stored, the body in `content.xml`. */
export function makeOdf(kind: keyof typeof ODF_MIME, body: string): Buffer {
  return zip(
    {
      mimetype: ODF_MIME[kind],
      'META-INF/manifest.xml': `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODF_MIME[kind]}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
      'content.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    },
    ['mimetype'],
  );
}

export const odfCell = (text: string, attrs = '') =>
  `<table:table-cell ${attrs}><text:p>${esc(text)}</text:p></table:table-cell>`;
export const odfTable = (rows: string[][], name = 'Tabelle') =>
  `<table:table table:name="${esc(name)}">${rows.map((r) => `<table:table-row>${r.map((c) => odfCell(c)).join('')}</table:table-row>`).join('')}</table:table>`;

/** A mail as a mail program saves it (.eml), built by nodemailer's composer, with optional attachments. */
export function makeEml(options: {
  subject: string;
  text?: string;
  html?: string;
  attachments?: Array<{ filename: string; content: Buffer | string }>;
}): Promise<Buffer> {
  return new MailComposer({
    from: 'Meister Berg <berg@handwerk.example>',
    to: 'buero@handwerk.example',
    date: new Date('2026-03-02T08:00:00Z'),
    ...options,
  })
    .compile()
    .build();
}
