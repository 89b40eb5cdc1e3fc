import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common';
import { dictionary as english, translations } from '@zxcvbn-ts/language-en';
import { MIN_PASSWORD_LENGTH } from '../console/passwords.js';

/**
 * How a portal password is judged (docs/decisions/0086-portal-users-and-invitations.md): at least 12 characters and a
 * zxcvbn-ts score of 3 or more, the user's e-mail and partner name counted as guessable. Offline: the dictionaries
 * (common passwords, names, English words, keyboard patterns) ship with the packages. Built once, on first use.
 */
let zxcvbn: ZxcvbnFactory | undefined;
const MIN_SCORE = 3;

/** Why the password is refused, in words a person can act on; null when it is good enough. */
export function passwordWeakness(password: string, userInputs: string[]): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > 200) return 'A password can have at most 200 characters.';
  zxcvbn ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...common, ...english, userInputs },
  });
  const result = zxcvbn.check(password, userInputs);
  if (result.score >= MIN_SCORE) return null;
  const why = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(' ');
  return `This password is too easy to guess.${why ? ` ${why}` : ''}`;
}
