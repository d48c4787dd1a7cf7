import { describe, expect, it } from 'vitest';
import { replyText, splitMessage } from './reply-text.ts';

describe('splitting a reply into WhatsApp messages', () => {
  it('keeps a short reply whole', () => {
    expect(splitMessage('Kurz und gut.')).toEqual(['Kurz und gut.']);
  });

  it('ends every part on a sentence boundary, within the limit, losing nothing', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Satz Nummer ${i + 1} endet hier.`);
    const parts = splitMessage(sentences.join(' '), 100);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(100);
      expect(part).toMatch(/endet hier\.$/);
    }
    expect(parts.join(' ')).toBe(sentences.join(' '));
  });

  it('prefers a paragraph break and cuts a sentence longer than a message at a space', () => {
    const parts = splitMessage(`Erster Absatz.\n\n${'wort '.repeat(30).trim()}`, 40);
    expect(parts[0]).toBe('Erster Absatz.');
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(40);
    expect(parts.slice(1).join(' ')).toBe('wort '.repeat(30).trim());
  });

  it('splits after a question or an exclamation, and after a closing quote', () => {
    expect(splitMessage('Wirklich? Ja! „Genau.“ Ende.', 10)).toEqual([
      'Wirklich?',
      'Ja!',
      '„Genau.“',
      'Ende.',
    ]);
  });
});

describe('the reply text', () => {
  it('quotes the transcript, lists the sources with pages and links the web app, in the given language', () => {
    const text = replyText(
      'de',
      {
        content: 'Mit einem Vierkantschlüssel [1].',
        citations: [
          {
            n: 1,
            passageId: '4f3d0b85-6e1b-4d86-8a5b-4c3f9d4e5f04',
            fileId: 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9',
            fileName: 'Handbuch.pdf',
            divisionId: '1c0a7e52-3b8e-4a53-9d2e-1f0c6a1b2c01',
            page: 14,
            headingPath: [],
            text: null,
          },
        ],
      },
      'https://wissen.example/chat?chat=1',
      'Womit entlüfte ich?',
    );
    expect(text).toBe(
      [
        '🎤 Ihre Frage: „Womit entlüfte ich?“',
        'Mit einem Vierkantschlüssel [1].',
        'Quellen:\n[1] Handbuch.pdf, S. 14',
        'In der Web-App öffnen: https://wissen.example/chat?chat=1',
      ].join('\n\n'),
    );
  });
});
