import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { MailSecurity } from '@werkwissen/shared';
import type { ImapFlow } from 'imapflow';
import type { Transporter } from 'nodemailer';
import { addressAllowed, OutboundBlockedError, type OutboundPolicy } from '../outbound/outbound-fetch.ts';

/** A mailbox's connection details with the password opened. */
export interface MailAccount {
  smtpHost: string;
  smtpPort: number;
  imapHost: string;
  imapPort: number;
  userName: string;
  password: string;
  security: MailSecurity;
}

/** Why a connection failed, as the settings screen tells it (`emailSettings.failure.<code>`). */
export type MailFailure = 'auth' | 'blocked' | 'unreachable' | 'tls' | 'timeout' | 'protocol';

const TIMEOUT_MS = 15_000;

/**
 * The address to connect to for a host the user typed: resolved once and checked against the outbound policy (a
 * private or local address only when the operator allows it), so the socket goes where the check looked.
 */
async function allowedAddress(policy: OutboundPolicy, host: string, port: number): Promise<string> {
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
  const usable = addresses.find((a) => addressAllowed(policy, host, port, a.address));
  if (!usable) throw new OutboundBlockedError(host);
  return usable.address;
}

/** An SMTP transport to the account's server (STARTTLS required when asked for, TLS from the start on `tls`). */
export async function smtpTransport(policy: OutboundPolicy, account: MailAccount): Promise<Transporter> {
  const address = await allowedAddress(policy, account.smtpHost, account.smtpPort);
  // Loaded on first use (imapflow below too): only a company with its own mailbox connects to one.
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    host: address,
    port: account.smtpPort,
    secure: account.security === 'tls',
    requireTLS: account.security === 'starttls',
    ignoreTLS: account.security === 'none',
    tls: { servername: isIP(account.smtpHost) ? undefined : account.smtpHost },
    auth: { user: account.userName, pass: account.password },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS * 4,
  });
}

/** An IMAP client for the account's mailbox, not yet connected. */
export async function imapClient(policy: OutboundPolicy, account: MailAccount): Promise<ImapFlow> {
  const address = await allowedAddress(policy, account.imapHost, account.imapPort);
  const { ImapFlow } = await import('imapflow');
  return new ImapFlow({
    host: address,
    port: account.imapPort,
    secure: account.security === 'tls',
    doSTARTTLS: account.security === 'starttls' ? true : account.security === 'none' ? false : undefined,
    servername: isIP(account.imapHost) ? undefined : account.imapHost,
    auth: { user: account.userName, pass: account.password },
    logger: false,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    // The watcher breaks IDLE to check the connection every MAIL_ASSISTANT_POLL_SECONDS; a socket silent for this
    // long (a command that never returns) is closed.
    socketTimeout: 5 * 60_000,
    disableAutoIdle: true,
  });
}

const TIMEOUTS = new Set(['ETIMEDOUT', 'ETIMEOUT', 'CONNECT_TIMEOUT', 'GREETING_TIMEOUT']);
/** Node's socket and DNS codes, nodemailer's, and imapflow's for a connection that went away. */
const UNREACHABLE = new Set([
  'ESOCKET',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EDNS',
  'NoConnection',
  'EConnectionClosed',
]);

/** What kind of failure an SMTP or IMAP error is. */
export function failureOf(error: unknown): MailFailure {
  const e = error as {
    code?: string;
    responseCode?: number;
    authenticationFailed?: boolean;
    serverResponseCode?: string;
  };
  if (error instanceof OutboundBlockedError || e.code === 'OUTBOUND_BLOCKED') return 'blocked';
  if (e.authenticationFailed || e.code === 'EAUTH' || e.serverResponseCode === 'AUTHENTICATIONFAILED')
    return 'auth';
  if (e.responseCode === 535 || e.responseCode === 534) return 'auth';
  if (TIMEOUTS.has(e.code ?? '')) return 'timeout';
  if (UNREACHABLE.has(e.code ?? '')) return 'unreachable';
  if (e.code === 'ETLS' || /certificate|tls|ssl/i.test(String((error as Error)?.message))) return 'tls';
  return e.code === 'ECONNECTION' ? 'unreachable' : 'protocol';
}

/** Signs in to SMTP (nodemailer `verify`) and IMAP for real; null where it worked, else why it failed. */
export async function testAccount(
  policy: OutboundPolicy,
  account: MailAccount,
): Promise<{ smtp: MailFailure | null; imap: MailFailure | null }> {
  const smtp = async () => {
    const transport = await smtpTransport(policy, account);
    try {
      await transport.verify();
    } finally {
      transport.close();
    }
  };
  const imap = async () => {
    const client = await imapClient(policy, account);
    client.on('error', () => {});
    await client.connect();
    await client.logout();
  };
  const [s, i] = await Promise.allSettled([smtp(), imap()]);
  return {
    smtp: s.status === 'fulfilled' ? null : failureOf(s.reason),
    imap: i.status === 'fulfilled' ? null : failureOf(i.reason),
  };
}
