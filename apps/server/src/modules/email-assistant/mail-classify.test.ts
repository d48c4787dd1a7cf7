import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { rawMail } from '../../../test/support/dovecot.ts';
import { ignoreReason, questionOf } from './mail-classify.ts';
import { replySubject, replyText } from './mail-reply.ts';

/** The mailbox's own server writes `Authentication-Results: mx.firma.example; ...` (its authserv-id). */
const mailbox = {
  ownAddresses: ['assistent@firma.example'],
  allowed: ['chefin@kunde.example'],
  authservId: 'mx.firma.example',
};
const judge = async (headers: Record<string, string>, body = 'Wie entlüfte ich?') =>
  ignoreReason(await simpleParser(rawMail({ From: 'chefin@kunde.example', ...headers }, body)), mailbox);
/** A mail with these `Authentication-Results` headers, topmost first (the receiving server's is added on top). */
const withResults = async (results: string[], authservId = mailbox.authservId) =>
  ignoreReason(
    await simpleParser(
      results.map((r) => `Authentication-Results: ${r}\r\n`).join('') +
        rawMail({ From: 'chefin@kunde.example' }, 'Wie entlüfte ich?'),
    ),
    { ...mailbox, authservId },
  );

describe('which mails the assistant answers', () => {
  it('answers an allowed sender, also when the receiving server vouches for them', async () => {
    expect(await judge({})).toBeNull();
    expect(await judge({ 'Auto-Submitted': 'no' })).toBeNull();
    expect(
      await judge({ 'Authentication-Results': 'mx.firma.example; spf=pass; dkim=pass; dmarc=pass' }),
    ).toBeNull();
  });

  it('never answers robots, bounces, lists, forged senders or itself', async () => {
    expect(await judge({ 'Auto-Submitted': 'auto-generated' })).toBe('auto-reply');
    expect(await judge({ Precedence: 'junk' })).toBe('auto-reply');
    expect(await judge({ Precedence: 'auto_reply' })).toBe('auto-reply');
    expect(await judge({ 'X-Autoreply': 'yes' })).toBe('auto-reply');
    expect(await judge({ 'Return-Path': '<>' })).toBe('bounce');
    expect(await judge({ From: 'MAILER-DAEMON@kunde.example' })).toBe('bounce');
    expect(await judge({ 'List-Unsubscribe': '<mailto:off@kunde.example>' })).toBe('mailing-list');
    expect(await judge({ From: 'Assistent <ASSISTENT@firma.example>' })).toBe('ourselves');
    expect(await judge({ From: 'fremd@anders.example' })).toBe('not-allowed');
    expect(
      await judge({ 'Authentication-Results': 'mx.firma.example; spf=fail; dkim=none; dmarc=fail' }),
    ).toBe('unauthenticated');
  });

  it('reads only the verdict of the mailbox’s own server, never one the sender wrote', async () => {
    const forgedPass = 'mx.firma.example; spf=pass smtp.mailfrom=kunde.example; dkim=pass; dmarc=pass';
    const realFail = 'mx.firma.example; spf=fail smtp.mailfrom=kunde.example; dkim=none';
    // The sender's own "pass" sits below the receiving server's verdict: the topmost header of the server counts.
    expect(await withResults([realFail, forgedPass])).toBe('unauthenticated');
    // A header naming another server is anyone's: it neither vouches for the sender nor refuses them.
    expect(await withResults(['relay.kunde.example; spf=pass; dkim=pass', realFail])).toBe('unauthenticated');
    expect(await withResults(['relay.kunde.example; spf=fail; dkim=fail'])).toBeNull();
    // The authserv-id may follow a comment and carry a version; it is compared without regard to case.
    expect(await withResults(['(checked) MX.Firma.Example 1; spf=softfail; dkim=none'])).toBe(
      'unauthenticated',
    );
    expect(await withResults([`${realFail.replace('dkim=none', 'dkim=pass')}`])).toBeNull();
    // Without the setting no verdict is read, except a DMARC failure, which only refuses its writer's own mail.
    expect(await withResults([realFail, forgedPass], '')).toBeNull();
    expect(await withResults(['relay.kunde.example; dmarc=fail'], '')).toBe('unauthenticated');
  });

  it('reads the question without the quoted conversation and the signature', async () => {
    const mail = await simpleParser(
      rawMail({}, 'Wie entlüfte ich?\n\n-- \nDana\n\nAm Montag schrieb Bob:\n> alt'),
    );
    expect(questionOf(mail)).toBe('Wie entlüfte ich?');
  });
});

describe('the reply', () => {
  it('has one "Re:" whatever the subject had', () => {
    expect(replySubject('Heizung')).toBe('Re: Heizung');
    expect(replySubject('RE: AW: re:Heizung')).toBe('Re: Heizung');
    expect(replySubject('Re[2]: Heizung')).toBe('Re: Heizung');
  });

  it('lists each cited source once, with its page, in the mail’s language', () => {
    const text = replyText({
      language: 'de',
      answer: {
        text: 'Ventil drehen [1][2].',
        citations: [
          { n: 2, fileName: 'Anleitung.pdf', page: 4 },
          { n: 1, fileName: 'Heizung.docx', page: null },
          { n: 2, fileName: 'Anleitung.pdf', page: 4 },
        ],
      },
    });
    expect(text).toBe('Ventil drehen [1][2].\n\nQuellen:\n[1] Heizung.docx\n[2] Anleitung.pdf, Seite 4\n');
  });
});
