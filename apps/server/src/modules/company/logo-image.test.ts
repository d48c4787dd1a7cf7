import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LOGO_BOX, prepareLogo, sanitiseSvg } from './logo-image.ts';

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );

const svg = (inner: string, attributes = '') =>
  Buffer.from(
    `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40" ${attributes}>${inner}</svg>`,
  );
const GOOD = svg(
  '<defs><linearGradient id="g"><stop offset="0" stop-color="#e8590c"/></linearGradient></defs>' +
    '<rect x="10" y="5" width="100" height="30" fill="url(#g)"/>',
);

/** A 600 x 300 picture: an orange block of 400 x 100 in a transparent margin. */
async function paddedPng() {
  const block = await sharp({
    create: { width: 400, height: 100, channels: 4, background: { r: 232, g: 89, b: 12, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: 600, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: block, left: 100, top: 100 }])
    .png()
    .toBuffer();
}

describe('company logo image', () => {
  it('refuses what is not an image, by content and not by name', async () => {
    expect(await code(prepareLogo(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj')))).toBe(
      'COMPANY_LOGO_NOT_IMAGE',
    );
    expect(await code(prepareLogo(Buffer.from('just some text')))).toBe('COMPANY_LOGO_NOT_IMAGE');
    // A PNG signature over garbage is no picture either.
    const broken = Buffer.concat([(await paddedPng()).subarray(0, 40), Buffer.alloc(200, 7)]);
    expect(await code(prepareLogo(broken))).toBe('COMPANY_LOGO_NOT_IMAGE');
  });

  it('refuses an SVG with a script, an event handler, an external reference or entities', async () => {
    const unsafe = [
      svg('<script>alert(1)</script><rect width="10" height="10"/>'),
      svg('<rect width="10" height="10"/>', 'onload="alert(1)"'),
      svg('<rect width="10" height="10" onclick="steal()"/>'),
      svg('<image href="https://tracker.example/pixel.png" width="10" height="10"/>'),
      svg('<image xlink:href="file:///etc/passwd" width="10" height="10"/>'),
      svg('<a href="javascript:alert(1)"><rect width="10" height="10"/></a>'),
      svg('<style>rect { fill: url(https://tracker.example/x.svg#p) }</style><rect width="10" height="10"/>'),
      svg('<foreignObject><iframe src="https://evil.example"></iframe></foreignObject>'),
      Buffer.from('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>'),
    ];
    for (const content of unsafe) expect(await code(prepareLogo(content))).toBe('COMPANY_LOGO_UNSAFE');
  });

  it('keeps a harmless SVG, sanitised, and renders it', async () => {
    const clean = sanitiseSvg(
      Buffer.from(GOOD.toString().replace('<rect', '<sodipodi:namedview pagecolor="#ffffff"/><rect')),
    );
    expect(clean).toContain('<rect');
    expect(clean).toContain('fill="url(#g)"');
    // Editor leftovers go without a refusal.
    expect(clean).not.toContain('namedview');
    expect(clean).not.toContain('<?xml');
    const image = await prepareLogo(GOOD);
    const meta = await sharp(image.png).metadata();
    expect(meta.format).toBe('png');
    // Cropped to the orange rectangle (100 x 30 of 120 x 40), rendered at twice its size.
    expect([image.width, image.height]).toEqual([meta.width, meta.height]);
    expect(image.width / image.height).toBeCloseTo(100 / 30, 1);
  });

  it('crops the margin away and scales a large picture into the box, keeping its proportions', async () => {
    const image = await prepareLogo(await paddedPng());
    expect(image.width).toBe(LOGO_BOX);
    expect(image.height).toBe(LOGO_BOX / 4);
    const { data, info } = await sharp(image.png).raw().toBuffer({ resolveWithObject: true });
    // The corner is the block's orange now, not the transparent margin.
    expect([...data.subarray(0, info.channels)]).toEqual([232, 89, 12, 255]);
  });

  it('never enlarges a small picture', async () => {
    const small = await sharp({
      create: { width: 60, height: 20, channels: 3, background: { r: 10, g: 20, b: 30 } },
    })
      .jpeg()
      .toBuffer();
    const image = await prepareLogo(small);
    expect([image.width, image.height]).toEqual([60, 20]);
  });
});
