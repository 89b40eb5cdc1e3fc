import { InvalidArgumentError, type Command } from 'commander';

/** Every command can print JSON for scripts instead of a table. */
export const withJson = (command: Command) => command.option('--json', 'print JSON (for scripts) instead of a table');

/** Every command that changes something records who did it. */
export const withOperator = (command: Command) =>
  command.option(
    '--operator <name>',
    'who is making this change, recorded in the audit log (default: your OS user name)',
  );

/** A commander argument parser for whole numbers within bounds. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number, got ${JSON.stringify(value)}`);
    const n = Number(value.trim());
    if (n < min || n > max)
      throw new InvalidArgumentError(
        `expected a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`,
      );
    return n;
  };
}

/** For options given several times: `--channel A --channel B`. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `--after <cursor>`: the page after the one whose "next" it is (docs/decisions/0074-operators-listings-by-key.md). */
export const withAfter = (command: Command) =>
  command.option('--after <cursor>', 'the page after this cursor (the "next" of the page before)');
