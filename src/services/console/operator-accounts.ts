import { isUniqueViolation } from '../../infrastructure/db/unavailable.js';
import {
  deleteSessionsOf,
  findOperatorByEmail,
  insertOperator,
  listOperators,
  updateOperator,
  type ConsoleOperator,
} from '../../infrastructure/repositories/console-operators.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.js';

/** Console operator accounts, managed with the CLI (`fundraiser-admin operators ...`); every change is audited. */
export type ConsoleRole = 'admin' | 'viewer';
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['admin', 'viewer'];

export interface OperatorView {
  email: string;
  role: ConsoleRole;
  status: 'active' | 'disabled';
  lockedUntil: Date | null;
  createdAt: Date;
}

const view = (o: ConsoleOperator): OperatorView => ({
  email: o.email,
  role: o.role,
  status: o.status,
  lockedUntil: o.locked_until,
  createdAt: o.created_at,
});

function normaliseEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new InvalidInputError(`${JSON.stringify(value)} is not an e-mail address.`);
  return email;
}

function requirePasswordShape(password: string) {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw new InvalidInputError(`The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
}

export async function createOperator(
  ctx: OperatorContext,
  input: { email: string; role: string; password: string },
): Promise<OperatorView> {
  const email = normaliseEmail(input.email);
  if (!(CONSOLE_ROLES as readonly string[]).includes(input.role))
    throw new InvalidInputError(`The role must be one of ${CONSOLE_ROLES.join(', ')}.`);
  requirePasswordShape(input.password);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(ctx, async (tx) => {
    const created = await insertOperator(tx.db, { email, role: input.role as ConsoleRole, passwordHash }).catch(
      (err: unknown) => {
        throw isUniqueViolation(err) ? new ConflictError(`An operator ${email} already exists.`) : err;
      },
    );
    await audit(tx, AuditActions.operatorCreate, email, { role: created.role });
    return view(created);
  });
}

export async function listOperatorAccounts(ctx: OperatorContext): Promise<OperatorView[]> {
  return (await listOperators(ctx.db)).map(view);
}

/** A new password; also lifts a lock-out and re-enables a disabled account. Signs the operator out everywhere. */
export async function resetOperatorPassword(
  ctx: OperatorContext,
  emailInput: string,
  password: string,
): Promise<OperatorView> {
  requirePasswordShape(password);
  const operator = await requireOperator(ctx, emailInput);
  const passwordHash = await hashPassword(password);
  await inTransaction(ctx, async (tx) => {
    await updateOperator(
      tx.db,
      operator.id,
      { passwordHash, status: 'active', failedLogins: 0, lockedUntil: null },
      tx.now(),
    );
    await deleteSessionsOf(tx.db, operator.id, tx.now());
    await audit(tx, AuditActions.operatorResetPassword, operator.email, {
      ...(operator.status === 'disabled' ? { reenabled: true } : {}),
    });
  });
  return view((await findOperatorByEmail(ctx.db, operator.email))!);
}

/** Stops an operator from signing in and ends their sessions at once. */
export async function disableOperator(
  ctx: OperatorContext,
  emailInput: string,
  reason?: string,
): Promise<OperatorView> {
  const operator = await requireOperator(ctx, emailInput);
  if (operator.status === 'disabled') throw new ConflictError(`Operator ${operator.email} is already disabled.`);
  await inTransaction(ctx, async (tx) => {
    await updateOperator(tx.db, operator.id, { status: 'disabled' }, tx.now());
    await deleteSessionsOf(tx.db, operator.id, tx.now());
    await audit(tx, AuditActions.operatorDisable, operator.email, reason ? { reason } : {});
  });
  return view((await findOperatorByEmail(ctx.db, operator.email))!);
}

async function requireOperator(ctx: OperatorContext, emailInput: string): Promise<ConsoleOperator> {
  const operator = await findOperatorByEmail(ctx.db, normaliseEmail(emailInput));
  if (!operator) throw new NotFoundError(`No operator ${JSON.stringify(emailInput)} (see "operators list").`);
  return operator;
}
