import nodemailer from 'nodemailer';

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

/**
 * An SMTP transport (nodemailer) from SMTP_URL: smtp:// upgrades with STARTTLS when the server offers it, smtps://
 * is TLS from the start. One connection per message (no pool): a message is sent by a job, and a job that dies
 * leaves no connection behind. The URL is never logged: it may carry a password.
 */
export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
    debug: false,
  });
  return {
    async send(mail) {
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
    },
    close: () => transport.close(),
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
