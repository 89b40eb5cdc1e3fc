import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerWebhooksList } from './list.js';
import { registerWebhooksDisable } from './disable.js';
import { registerWebhooksEnable } from './enable.js';
import { registerWebhooksDeliveries } from './deliveries.js';
import { registerWebhooksReplay } from './replay.js';
import { registerWebhooksPrune } from './prune.js';

/** webhooks list | disable | enable | deliveries | replay | prune: every partner's webhook endpoints. */
export function registerWebhooks(program: Command, ctx: CliContext) {
  const webhooks = program
    .command('webhooks')
    .description("Partners' webhook endpoints: status, deliveries and their attempts, disable/enable, replays");

  registerWebhooksList(webhooks, ctx);
  registerWebhooksDisable(webhooks, ctx);
  registerWebhooksEnable(webhooks, ctx);
  registerWebhooksDeliveries(webhooks, ctx);
  registerWebhooksReplay(webhooks, ctx);
  registerWebhooksPrune(webhooks, ctx);
}
