import type { Transporter } from 'nodemailer';

/** One message as it leaves: addresses, content, attachments, and the Message-ID it always carries. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ response: string }>;
  close(): void;
}

/** A pool with no message to send for this long is closed: the next message opens a new one. */
const IDLE_CLOSE_MS = 1000;

/**
 * An SMTP transport (nodemailer) from SMTP_URL: smtp:// upgrades with STARTTLS when the server offers it, smtps://
 * is TLS from the start. While messages flow, connections are pooled (nodemailer's pool, up to `connections` at
 * once), so a message costs its commands, not a TCP and TLS handshake and the server's greeting (smtp-server, for
 * one, waits 100 ms before greeting): one connection per message capped the outbox at ~10 messages per second per
 * connection. A connection that fails is dropped from the pool, and the pool is closed once idle for a second, so
 * no connection outlives a burst. The URL is never logged: it may carry a password.
 */
export function smtpTransport(url: string, timeoutMs: number, connections = 2): MailTransport {
  // nodemailer is loaded with the first message, not at start-up (docs/decisions/0049-a-faster-service-start.md).
  const create = async (): Promise<Transporter> =>
    (await import('nodemailer')).default.createTransport({
      url,
      pool: true,
      maxConnections: connections,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      logger: false,
      debug: false,
    });
  let pool: Promise<Transporter> | null = null;
  let sending = 0;
  let idle: NodeJS.Timeout | undefined;
  // A transport that could not be made is made again for the next message, as before the first one.
  const transporter = () => {
    const made = (pool ??= create());
    made.catch(() => (pool === made ? (pool = null) : undefined));
    return made;
  };
  const close = () => {
    clearTimeout(idle);
    void pool?.then(
      (open) => open.close(),
      () => undefined,
    );
    pool = null;
  };
  return {
    async send(mail) {
      clearTimeout(idle);
      sending += 1;
      try {
        const transport = await transporter();
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          messageId: mail.messageId,
          attachments: mail.attachments,
          disableUrlAccess: true,
          disableFileAccess: true,
        });
        return { response: String(info.response ?? '') };
      } finally {
        sending -= 1;
        if (sending === 0) {
          idle = setTimeout(close, IDLE_CLOSE_MS);
          idle.unref();
        }
      }
    },
    close,
  };
}

/**
 * An SMTP refusal for good: a 5xx reply (RFC 5321 4.2.1, "permanent negative completion"), such as an unknown
 * mailbox. Sending it again would be refused again, so it is not retried. Anything else (no connection, a timeout,
 * 4xx) may pass later.
 */
export function isPermanentFailure(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What to record of a failure: the server's reply or the error, never the URL or credentials. */
export function describeFailure(err: unknown): string {
  const { responseCode, response, code } = err as { responseCode?: number; response?: string; code?: string };
  if (responseCode) return `SMTP ${responseCode}: ${String(response ?? '').slice(0, 300)}`;
  const message = err instanceof Error ? err.message : String(err);
  return `${code ? `${code}: ` : ''}${message.replace(/smtps?:\/\/\S+/g, '[SMTP_URL]').slice(0, 300)}`;
}
