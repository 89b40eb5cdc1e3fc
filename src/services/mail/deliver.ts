import type { Kysely } from 'kysely';
import { HELD_OUTSIDE_PRODUCTION, HELD_WITHOUT_SMTP, type MailPolicy } from '../../config/mail.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import { describeFailure, isPermanentFailure, type MailTransport } from '../../infrastructure/mail/smtp.js';
import {
  lockMessages,
  markSent,
  recordDecisions,
  uncountAttempts,
  unsentAbout,
  updateMessage,
  type AttemptDecision,
} from '../../infrastructure/repositories/mail-outbox.js';
import { HELD_BEHIND_EARLIER, OrderGates, bySeq, chainsOf } from './order.js';
import type { MailAttachment, MailContent } from './outbox.js';

export interface MailDeps {
  db: Kysely<DB>;
  policy: MailPolicy;
  /** Null without SMTP_URL: every message is held. */
  transport: MailTransport | null;
  content: MailContent;
}

/** A message's delivery job, as the batch needs it: which message, and whether this is its last try. */
export interface DeliveryJob {
  id: string;
  messageId: string;
  retryCount: number;
  retryLimit: number;
}

export interface BatchOutcome {
  sent: number;
  held: number;
  failed: number;
  /** Jobs to try again later (by job id): their message could not be sent this time. */
  retry: Map<string, Error>;
  /** Jobs whose message waits for an earlier one about the same thing: back in the queue, no try counted. */
  deferred: Set<string>;
}

/** Where a message may go under the settings: its recipient in production, the QA inbox elsewhere, or nowhere. */
export function destinationOf(
  policy: MailPolicy,
  recipient: string,
  hasTransport: boolean,
): { to: string } | { held: string } {
  if (!hasTransport) return { held: HELD_WITHOUT_SMTP };
  if (policy.production) return { to: recipient };
  if (policy.redirectTo) return { to: policy.redirectTo };
  return { held: HELD_OUTSIDE_PRODUCTION };
}

interface Ready {
  job: DeliveryJob;
  message: MailMessage;
  to: string;
  attachments: MailAttachment[];
}

/**
 * One attempt at each message of a batch. First, in one short transaction: messages sent or failed are left
 * alone; those that cannot go anywhere under the settings are held; those behind an earlier message about the same
 * thing that is not sent yet wait (their job deferred) or are held with it; the others are rendered if they never
 * were (then they never change) and their attempt counted, all in one statement. Then they are sent, over the
 * transport's pooled connections, each with a Message-ID of its own that every attempt repeats: messages about one
 * thing one after the other in the order they were written, a message after the server accepted the one before
 * (services/mail/order.ts); the others side by side. Those accepted are recorded sent in one statement. A 5xx answer
 * fails a message for good; any other failure retries its job, with backoff, until its last attempt, and the later
 * messages about the same thing wait for it. A crash between the server's acceptance and that record sends those
 * messages again with the same Message-ID (docs/receipts.md, "Delivery").
 */
export async function deliverBatch(deps: MailDeps, jobs: readonly DeliveryJob[]): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { sent: 0, held: 0, failed: 0, retry: new Map(), deferred: new Set() };
  const ready = await deps.db.transaction().execute((trx) => prepare(trx, deps, jobs, outcome));
  const sent: { id: string; to: string }[] = [];
  const untried: Ready[] = [];
  const sendChain = async (chain: Ready[]) => {
    for (const [i, item] of chain.entries()) {
      const failure = await send(deps, item).then(
        () => null,
        (reason: unknown) => ({ reason }),
      );
      if (failure === null) {
        sent.push({ id: item.message.id, to: item.to });
        continue;
      }
      if (await recordFailure(deps, item, failure.reason, outcome)) continue;
      untried.push(...chain.slice(i + 1));
      return;
    }
  };
  await Promise.all(chainsOf(ready).map(sendChain));
  await markSent(deps.db, sent, new Date());
  await uncountAttempts(
    deps.db,
    untried.map((item) => item.message.id),
  );
  for (const item of untried) outcome.deferred.add(item.job.id);
  outcome.sent = sent.length;
  return outcome;
}

/** Records a refused message: failed for good (true), or its job to retry (false). */
async function recordFailure(deps: MailDeps, { job, message }: Ready, reason: unknown, outcome: BatchOutcome) {
  const final = isPermanentFailure(reason) || job.retryCount >= job.retryLimit;
  await updateMessage(deps.db, message.id, {
    last_error: describeFailure(reason),
    ...(final ? { status: 'failed' } : {}),
  });
  if (final) outcome.failed += 1;
  else outcome.retry.set(job.id, reason as Error);
  return final;
}

async function prepare(
  trx: Kysely<DB>,
  deps: MailDeps,
  jobs: readonly DeliveryJob[],
  outcome: BatchOutcome,
): Promise<Ready[]> {
  const jobOf = new Map(jobs.map((job) => [job.messageId, job]));
  const locked = await lockMessages(trx, [...jobOf.keys()]);
  const live = bySeq(
    locked.filter((m) => m.status !== 'sent' && m.status !== 'failed'),
    (m) => m.seq,
  );
  const abouts = [...new Set(live.flatMap((m) => (m.about === null ? [] : [m.about])))];
  const gates = new OrderGates(await unsentAbout(trx, abouts, [...jobOf.keys()]));
  const sending = (m: MailMessage) => 'to' in destinationOf(deps.policy, m.recipient, deps.transport !== null);
  // Messages behind an earlier one outside the batch are not rendered for nothing.
  const free = live.filter((m) => gates.outsideGate(m) === null);
  const composed = new Map([
    ...(await deps.content.compose(trx, free.filter(sending))),
    ...(await deps.content.compose(
      trx,
      free.filter((m) => !sending(m) && m.subject === null),
      { bodiesOnly: true },
    )),
  ]);
  const decisions: AttemptDecision[] = [];
  const ready: Ready[] = [];
  for (const message of live) {
    const job = jobOf.get(message.id)!;
    const gate = gates.gate(message);
    if (gate === 'wait') {
      outcome.deferred.add(job.id);
      continue;
    }
    const content = composed.get(message.id) ?? { rendered: null, attachments: [] };
    if (content instanceof Error) {
      outcome.retry.set(job.id, content);
      gates.stop(message, 'wait');
      continue;
    }
    const destination = destinationOf(deps.policy, message.recipient, deps.transport !== null);
    if (gate === 'hold' || 'held' in destination) {
      const heldBecause = 'held' in destination ? destination.held : HELD_BEHIND_EARLIER;
      decisions.push({ id: message.id, rendered: content.rendered, status: 'held', heldBecause });
      gates.stop(message, 'hold');
      outcome.held += 1;
      continue;
    }
    decisions.push({ id: message.id, rendered: content.rendered, status: 'pending', heldBecause: null });
    const bodies = content.rendered
      ? { subject: content.rendered.subject, text_body: content.rendered.text, html_body: content.rendered.html }
      : {};
    ready.push({ job, message: { ...message, ...bodies }, to: destination.to, attachments: content.attachments });
  }
  await recordDecisions(trx, decisions);
  return ready;
}

function send(deps: MailDeps, { message, to, attachments }: Ready) {
  return deps.transport!.send({
    from: deps.policy.from,
    to,
    subject: message.subject!,
    text: message.text_body!,
    html: message.html_body,
    messageId: `<${message.id}@${domainOf(deps.policy.from)}>`,
    attachments,
  });
}

/** The domain of MAIL_FROM's address, for Message-IDs (`<id@domain>`, RFC 5322 3.6.4). */
function domainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}
