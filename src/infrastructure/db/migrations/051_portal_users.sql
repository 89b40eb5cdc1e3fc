-- The partner portal (docs/portal.md): the people of a partner who sign in at /portal, their sessions and their
-- recovery codes. A user belongs to one partner; an e-mail address is one user across all partners, so signing in
-- by e-mail alone always names one partner.
create table portal_users (
  id                  uuid primary key default gen_random_uuid(),
  partner_id          uuid not null references partners (id) on delete cascade,
  email               text not null unique,                 -- stored lower-case
  role                text not null check (role in ('admin', 'developer', 'finance', 'read-only')),
  status              text not null default 'invited' check (status in ('invited', 'active', 'removed')),
  password_hash       text,                                 -- scrypt$N$r$p$salt$hash, set on acceptance
  totp_secret         text,                                 -- sealed (AES-256-GCM), set on enrolment
  totp_last_step      bigint,                               -- the last time step accepted: a code is used once
  invite_token_hash   text unique,                          -- SHA-256 of the one-time link's token
  invite_expires_at   timestamptz,
  invited_by          text not null,                        -- the actor who invited (operator or portal:<email>)
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now()
);
create index portal_users_partner_idx on portal_users (partner_id);

-- Recovery codes: each stands in for one TOTP code once. Only their SHA-256 is kept (a code is 80 random bits).
create table portal_recovery_codes (
  user_id     uuid not null references portal_users (id) on delete cascade,
  code_hash   text not null,
  used_at     timestamptz,
  primary key (user_id, code_hash)
);

-- One row per signed-in browser, as console_sessions: the cookie's token is stored as its SHA-256. A row whose
-- `verified_at` is null is half a sign-in (the password was right, the second factor is still asked for) and opens
-- nothing but the second step. A session ends when idle, at its absolute expiry, at sign-out, and when its user's
-- role changes or the user is removed (its rows are deleted).
create table portal_sessions (
  token_hash          text primary key,
  user_id             uuid not null references portal_users (id) on delete cascade,
  csrf_token          text not null,
  created_at          timestamptz not null,
  verified_at         timestamptz,
  last_seen_at        timestamptz not null,
  expires_at          timestamptz not null,
  absolute_expires_at timestamptz not null
);
create index portal_sessions_user_idx on portal_sessions (user_id);
