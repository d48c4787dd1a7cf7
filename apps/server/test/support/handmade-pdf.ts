/**
 * PDFs written object by object, for what pdfkit cannot make: fonts that are referenced but not embedded (a
 * Japanese CID font through a predefined CMap, one of the 14 standard fonts) and pages with images only.
 */

/** Joins numbered objects (1..n, the first one the catalog) into a PDF with a correct cross-reference table. */
export function assemblePdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF\n',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref)]);
}

const stream = (content: string | Buffer, dict = '') => {
  const data = typeof content === 'string' ? Buffer.from(content, 'latin1') : content;
  return Buffer.concat([
    Buffer.from(`<< /Length ${data.length} ${dict}>>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
};

/** Pages (objects from 3 on, each page followed by its content) sharing one resource dictionary. */
function withPages(contents: (string | Buffer)[], resources: string, extra: (string | Buffer)[]): Buffer {
  const first = 3;
  const kids = contents.map((_, i) => `${first + 2 * i} 0 R`).join(' ');
  const resourcesRef = first + 2 * contents.length;
  const pages = contents.flatMap((content, i) => [
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources ${resourcesRef} 0 R /Contents ${first + 2 * i + 1} 0 R >>`,
    stream(content),
  ]);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${contents.length} >>`,
    ...pages,
    resources,
    ...extra,
  ]);
}

const utf16Hex = (text: string) => `<${Buffer.from(text, 'utf16le').swap16().toString('hex')}>`;

/**
 * Japanese in vertical columns (right to left), or in horizontal lines from the top, with a CID font that is not
 * embedded: the codes go through the predefined CMap UniJIS-UCS2-V (or -H), the text through Adobe-Japan1-UCS2; both
 * ship with pdf.js, not in the file.
 */
export function makeJapanesePdf(columns: string[], writing: 'vertical' | 'horizontal' = 'vertical'): Buffer {
  const position = (i: number) => (writing === 'vertical' ? `${520 - i * 40} 780` : `72 ${760 - i * 30}`);
  const content = columns
    .map((column, i) => `BT /F1 24 Tf 1 0 0 1 ${position(i)} Tm ${utf16Hex(column)} Tj ET`)
    .join('\n');
  const encoding = writing === 'vertical' ? 'UniJIS-UCS2-V' : 'UniJIS-UCS2-H';
  // Objects after the page and its content: 5 resources, 6 the Type0 font, 7 its CID font, 8 the descriptor.
  return withPages([content], '<< /Font << /F1 6 0 R >> >>', [
    `<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPr6N-Regular /Encoding /${encoding} /DescendantFonts [7 0 R] >>`,
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPr6N-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /FontDescriptor 8 0 R /DW 1000 /DW2 [880 -1000] >>',
    '<< /Type /FontDescriptor /FontName /KozMinPr6N-Regular /Flags 4 /FontBBox [-437 -340 1147 1317] /ItalicAngle 0 /Ascent 1317 /Descent -349 /CapHeight 742 /StemV 80 >>',
  ]);
}

/** A PDF string in WinAnsi bytes; the characters \x01 and \x02 stand for the fi and fl ligature glyphs. */
const winAnsi = (text: string) =>
  `(${Buffer.from(text, 'latin1')
    .toString('latin1')
    .replace(/[\\()]/g, (c) => `\\${c}`)
    .replace(/[^\x20-\x7e]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)})`;

/**
 * Pages set in Times-Roman, one of the 14 standard fonts, without font data in the file; \x01 and \x02 in the text
 * print the fi and fl ligatures. Each page is a list of lines from the top; `header` and `footer` (with {page})
 * repeat on every page.
 */
export function makeStandardFontPdf(
  pages: string[][],
  options: { header?: string; footer?: string } = {},
): Buffer {
  const contents = pages.map((lines, i) => {
    const ops: string[] = [];
    const line = (text: string, y: number, size = 12) =>
      ops.push(`BT /F1 ${size} Tf 1 0 0 1 72 ${y} Tm ${winAnsi(text)} Tj ET`);
    if (options.header) line(options.header, 800, 9);
    for (const [n, text] of lines.entries()) line(text, 740 - n * 16);
    if (options.footer) line(options.footer.replace('{page}', String(i + 1)), 40, 9);
    return ops.join('\n');
  });
  const resources = `${3 + 2 * pages.length + 1} 0 R`;
  return withPages(contents, `<< /Font << /F1 ${resources} >> >>`, [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /fi /fl] >> >>',
  ]);
}

/**
 * One page of lines, each given as the text of its glyphs in the order they are drawn (left to right, as a PDF places
 * right-to-left text: visual order). Each distinct glyph text gets a one-byte code of a font whose ToUnicode map
 * gives that text, so one glyph may stand for several characters, as a lam-alef ligature stands for lam and alef.
 */
export function makeToUnicodePdf(lines: string[][]): Buffer {
  const glyphs = [...new Set(lines.flat())];
  if (glyphs.length > 200) throw new Error('at most 200 distinct glyphs');
  const code = (glyph: string) => (0x21 + glyphs.indexOf(glyph)).toString(16).padStart(2, '0');
  const content = lines
    .map((line, n) => `BT /F1 14 Tf 1 0 0 1 72 ${760 - n * 20} Tm <${line.map(code).join('')}> Tj ET`)
    .join('\n');
  const cmap = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CMapName /Werkwissen-Test def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    `${glyphs.length} beginbfchar`,
    ...glyphs.map((glyph) => `<${code(glyph)}> ${utf16Hex(glyph)}`),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  // Objects after the page and its content: 5 resources, 6 the font, 7 its ToUnicode map.
  return withPages([content], '<< /Font << /F1 6 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 7 0 R >>',
    stream(cmap),
  ]);
}

/** One page per picture (deflated 8-bit grey pixels), each drawn over the whole page: a scan without a text layer. */
export function makeScannedPdf(pngPages: { pixels: Buffer; width: number; height: number }[]): Buffer {
  const n = pngPages.length;
  const imageRef = (i: number) => 3 + 2 * n + 1 + i;
  const contents = pngPages.map((_, i) => `q 595 0 0 842 0 0 cm /Im${i} Do Q`);
  const xobjects = pngPages.map((_, i) => `/Im${i} ${imageRef(i)} 0 R`).join(' ');
  return withPages(
    contents,
    `<< /XObject << ${xobjects} >> >>`,
    pngPages.map((page) =>
      stream(
        page.pixels,
        `/Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode `,
      ),
    ),
  );
}
