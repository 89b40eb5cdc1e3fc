import { listChannels } from '../../infrastructure/repositories/channels.js';
import { insertChannel, listChannelUsage, type ChannelUsage } from '../../infrastructure/repositories/channel-admin.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError } from './operator-errors.js';

export const listChannelsWithUsage = (ctx: OperatorContext): Promise<ChannelUsage[]> => listChannelUsage(ctx.db);

/**
 * Adds a channel name. Partners must name channels exactly (case-sensitive,
 * docs/decisions/0006-channels-are-reference-data-issued-per-partner.md), so the name is kept as typed; only
 * surrounding spaces, which nobody could send on purpose, are refused.
 */
export async function addChannel(ctx: OperatorContext, name: string): Promise<{ name: string }> {
  if (name.trim() === '' || name !== name.trim())
    throw new InvalidInputError('A channel name must be non-empty and must not start or end with spaces.');
  if (name.length > 100) throw new InvalidInputError('A channel name must be at most 100 characters.');
  return inTransaction(ctx, async (tx) => {
    if (!(await insertChannel(tx.db, name, tx.now())))
      throw new ConflictError(`Channel ${JSON.stringify(name)} already exists.`);
    await audit(tx, AuditActions.channelAdd, name);
    return { name };
  });
}

/** Fails naming every unknown channel and listing the known ones. */
export async function requireKnownChannels(ctx: OperatorContext, names: readonly string[]): Promise<void> {
  const known = await listChannels(ctx.db);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `Unknown channel${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => JSON.stringify(c)).join(', ')}. ` +
        `Known channels: ${known.map((c) => JSON.stringify(c)).join(', ')} (add one with "channels add").`,
    );
  }
}
