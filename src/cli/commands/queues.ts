import type { Command } from 'commander';
import { readQueueStats, type QueueStats } from '../../services/queues/queue-stats.js';
import type { CliContext } from '../context.js';
import { withJson } from '../options.js';
import { tableOr, type Column } from '../output.js';

const columns: Column<QueueStats>[] = [
  { header: 'Queue', value: (s) => s.queue },
  { header: 'Waiting', value: (s) => s.waiting },
  { header: 'Oldest waiting', value: (s) => (s.oldestWaitingSeconds === null ? '—' : age(s.oldestWaitingSeconds)) },
  { header: 'Scheduled', value: (s) => s.scheduled },
];

/** queues: depth and age of every background queue (the same figures as the /metrics gauges). */
export function registerQueues(program: Command, ctx: CliContext) {
  withJson(
    program
      .command('queues')
      .description(
        'Background queues: jobs waiting (due, not yet taken), age of the oldest, and jobs scheduled for later',
      ),
  ).action((_options: unknown, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const stats = await readQueueStats(ops.db);
      out.emit(stats, () => tableOr(stats, columns, 'No queues.'));
    }),
  );
}

function age(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
