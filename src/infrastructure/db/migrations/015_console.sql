-- The operator console (docs/decisions/0044-operator-console-server-rendered.md): operator accounts, their
-- server-side sessions, and counts of refused API calls.

-- People who sign in to /console. Created, reset and disabled only with the CLI (fundraiser-admin operators).
create table console_operators (
  id              uuid primary key default gen_random_uuid(),
  email           text not null unique,                 -- stored lower-case
  role            text not null check (role in ('admin', 'viewer')),
  password_hash   text not null,                        -- scrypt$N$r$p$salt$hash, never the password
  status          text not null default 'active' check (status in ('active', 'disabled')),
  failed_logins   integer not null default 0,           -- consecutive failures, for login throttling
  locked_until    timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);

-- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is stored here, so a copy of
-- the database cannot be replayed as a session. The CSRF token is the synchroniser token of every form.
create table console_sessions (
  token_hash      text primary key,
  operator_id     uuid not null references console_operators (id) on delete cascade,
  csrf_token      text not null,
  created_at      timestamptz not null,
  last_seen_at    timestamptz not null,
  expires_at      timestamptz not null
);
create index console_sessions_operator_idx on console_sessions (operator_id);

-- Partner API calls refused for bad credentials (401) or an exhausted quota (429), counted per UTC day. Each
-- instance adds its counts every few seconds, so a flood of refusals costs one upsert per interval, not per call.
create table request_rejections (
  day             date not null,
  kind            text not null check (kind in ('authentication', 'quota')),
  partner_id      text not null default '',             -- '' when the caller could not be identified
  count           bigint not null,
  primary key (day, kind, partner_id)
);

