import { InvalidInputError } from '../operators/operator-errors.js';

const CONTROL = /\p{Cc}/u;

/** One line of text an operator typed, trimmed: required, at most `max` characters. */
export function cleanText(value: string | undefined, what: string, max: number): string {
  const text = (value ?? '').trim();
  if (text === '') throw new InvalidInputError(`Give ${what}.`);
  if (text.length > max || CONTROL.test(text))
    throw new InvalidInputError(
      `${what[0]!.toUpperCase()}${what.slice(1)} must be one line of at most ${max} characters.`,
    );
  return text;
}

/** An e-mail address an operator typed: the one a person gave, compared without case. */
export function cleanEmail(value: string | undefined): string {
  const email = cleanText(value, 'the e-mail address', 320);
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw new InvalidInputError(`${JSON.stringify(email)} is not an e-mail address.`);
  return email;
}
