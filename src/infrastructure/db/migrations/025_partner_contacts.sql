-- Who to tell at each partner (docs/partners.md): its technical, finance and security contacts, and the API
-- deprecations announced to every active partner (contract section 9.2: at least 30 days before production).

create table partner_contacts (
  id          uuid primary key default gen_random_uuid(),
  partner_id  uuid not null references partners (id) on delete cascade,
  role        text not null check (role in ('technical', 'finance', 'security')),
  name        text not null,
  email       text not null,
  created_at  timestamptz not null default now()
);
create unique index partner_contacts_unique_idx on partner_contacts (partner_id, role, lower(email));

create table api_deprecations (
  id            uuid primary key default gen_random_uuid(),
  -- Routes as 'METHOD /path' of the OpenAPI document, e.g. 'GET /remittances'.
  routes        text[] not null check (cardinality(routes) > 0),
  sunset_at     timestamptz not null,
  description   text not null,
  link          text,
  announced_at  timestamptz not null default now(),
  announced_by  text not null
);
