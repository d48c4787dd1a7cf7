import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;

function totp(secret: string, label: string, issuer: string): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new random secret (160 bits, base32), the form an app takes by hand. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` address an app reads from the QR code, and that code as an SVG data URL. */
export async function enrolmentPicture(secret: string, label: string, issuer: string) {
  const uri = totp(secret, label, issuer).toString();
  // Loaded on first use: only an enrolment draws a QR code.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { otpauthUri: uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a code belongs to, when it is the code of the step at `now` or of one step either side (clocks of
 * phones drift); null otherwise.
 */
export function matchingStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret, '', '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** The code of the step at `at` (for tests and the e2e helper, which act as the authenticator app). */
export function totpCode(secret: string, at: number): string {
  return totp(secret, '', '').generate({ timestamp: at });
}
