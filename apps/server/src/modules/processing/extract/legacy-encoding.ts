import chardet from 'chardet';
import iconv from 'iconv-lite';

/** The single-byte encodings our markets' old files use, in the order a tie is decided. */
export const LEGACY_ENCODINGS = [
  'windows-1252',
  'windows-1250',
  'iso-8859-2',
  'windows-1251',
  'koi8-r',
  'cp866',
  'windows-1256',
  'iso-8859-6',
] as const;

/** Multi-byte encodings chardet recognises reliably by their structure; its guess is taken for these. */
const MULTIBYTE = new Set(['Shift_JIS', 'EUC-JP', 'EUC-KR', 'GB18030', 'Big5', 'ISO-2022-JP', 'ISO-2022-KR']);

/** The most frequent letters of running text per script (Russian and Ukrainian; Arabic). */
const FREQUENT: Record<'cyrillic' | 'arabic', Set<string>> = {
  cyrillic: new Set('оеаинтсрвлкмдпуяіы'),
  arabic: new Set('اليمونرتبعةدهسفكقأ'),
};
/** Accented letters of the Latin-script languages of our markets (and their neighbours). */
const LATIN_ACCENTED = new Set(
  'äöüßéèêëàâîïôûùçñóíúáãõìòąćęłńśźżčďěňřšťůžőűýăşţșțđ'.split('').flatMap((c) => [c, c.toUpperCase()]),
);
/** Punctuation and signs that legitimately stand outside ASCII in old texts. */
const TYPOGRAPHIC = new Set('«»–—„“”‘’‚€№…°§·×±\u00a0¶©®™•،؛؟');

type Script = 'latin' | 'cyrillic' | 'arabic' | 'other';
const scriptOf = (ch: string): Script =>
  /\p{Script=Latin}/u.test(ch)
    ? 'latin'
    : /\p{Script=Cyrillic}/u.test(ch)
      ? 'cyrillic'
      : /\p{Script=Arabic}/u.test(ch)
        ? 'arabic'
        : 'other';

/**
 * How much a decoded text reads like real text, from the characters outside ASCII (ASCII reads the same in every
 * candidate): letters of one script that are frequent in its languages score, while replacement and control
 * characters, stray symbols, words that mix scripts and case flips inside a word ("пРИВЕТ") cost. About 1 for
 * real text, 0 or less for a wrong decoding.
 */
export function readabilityScore(text: string): number {
  let high = 0;
  let bad = 0;
  let odd = 0;
  const letters: Record<Script, number> = { latin: 0, cyrillic: 0, arabic: 0, other: 0 };
  let frequent = 0;
  let plausibleLatin = 0;
  let asciiLetters = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0x7f) bad++;
      else if (/[A-Za-z]/.test(ch)) asciiLetters++;
      continue;
    }
    high++;
    if (c === 0xfffd || (c >= 0x80 && c <= 0x9f)) bad++;
    else if (/\p{L}/u.test(ch)) {
      const script = scriptOf(ch);
      letters[script]++;
      if (script === 'latin' && LATIN_ACCENTED.has(ch)) plausibleLatin++;
      if ((script === 'cyrillic' || script === 'arabic') && FREQUENT[script].has(ch.toLowerCase()))
        frequent++;
    } else if (!TYPOGRAPHIC.has(ch) && !/[\p{Mn}\p{Zs}]/u.test(ch)) odd++;
  }
  if (high === 0) return 1;
  const nonLatin = letters.cyrillic + letters.arabic;
  const dominant: Script =
    letters.latin >= nonLatin ? 'latin' : letters.cyrillic >= letters.arabic ? 'cyrillic' : 'arabic';
  let score: number;
  if (dominant === 'latin') {
    // Accents are a minority among a Latin text's letters; whole words of them are another script misread.
    const accentShare = letters.latin / Math.max(1, letters.latin + asciiLetters);
    score = (plausibleLatin / high) * (accentShare < 0.35 ? 1 : 0.3);
  } else {
    const own = letters[dominant];
    // About half of a Russian or Arabic text's letters are its most frequent ones; a misread spreads them evenly.
    score = Math.min(1, (2 * frequent) / Math.max(1, own)) * (own / high);
  }
  const words = text.match(/[\p{L}\p{M}]+/gu) ?? [];
  let flips = 0;
  let mixed = 0;
  let nonAsciiWords = 0;
  for (const word of words) {
    if (!/[^\p{ASCII}]/u.test(word)) continue;
    nonAsciiWords++;
    if (/\p{Ll}\p{Lu}/u.test(word)) flips++;
    if (/[A-Za-z]/.test(word) && /[\p{Script=Cyrillic}\p{Script=Arabic}]/u.test(word)) mixed++;
  }
  const perWord = nonAsciiWords || 1;
  return score - (5 * bad) / high - (2 * odd) / high - flips / perWord - mixed / perWord;
}

/** Below this, no decoding reads as text. */
const READABLE = 0.25;

/**
 * Decodes text in an unknown legacy encoding: a multi-byte encoding when chardet recognises one, else each
 * plausible single-byte encoding is tried and the one whose text reads most like real text wins. Null when none does.
 */
export function bestLegacyDecoding(buffer: Buffer): { encoding: string; text: string } | null {
  const sample = buffer.subarray(0, 256 * 1024);
  const guess = chardet.detect(sample);
  if (guess && MULTIBYTE.has(guess) && iconv.encodingExists(guess)) {
    const text = iconv.decode(buffer, guess);
    if (!text.includes('\ufffd')) return { encoding: guess, text };
  }
  let best: { encoding: string; score: number } | null = null;
  for (const encoding of LEGACY_ENCODINGS) {
    const score = readabilityScore(iconv.decode(sample, encoding));
    if (!best || score > best.score) best = { encoding, score };
  }
  if (!best || best.score < READABLE) return null;
  return { encoding: best.encoding, text: iconv.decode(buffer, best.encoding) };
}
