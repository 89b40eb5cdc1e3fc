import type { Kysely } from 'kysely';
import type { Environment } from '../config/index.js';
import { generateClientId, generateClientSecret, hashSecret } from '../domain/client-credentials.js';
import type { DB } from '../infrastructure/db/schema.js';
import { insertCredential } from '../infrastructure/repositories/client-credentials.js';

export interface IssuedCredential {
  clientId: string;
  /** Shown once to whoever issued it; only its hash is stored. */
  clientSecret: string;
  environment: Environment;
}

export async function issueCredential(
  db: Kysely<DB>,
  partnerId: string,
  environment: Environment,
): Promise<IssuedCredential> {
  const clientId = generateClientId(environment);
  const clientSecret = generateClientSecret();
  await insertCredential(db, { clientId, partnerId, environment, secretHash: hashSecret(clientSecret) });
  return { clientId, clientSecret, environment };
}
