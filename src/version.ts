import { readFileSync } from 'node:fs';

/** The contract version reported in every envelope (spec section 9). */
export const API_VERSION = '1.0.0';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  description: string;
  version: string;
};

/** What /info and /health report: read from package.json, never hard-coded twice. */
export const applicationInfo = { name: pkg.name, description: pkg.description, version: pkg.version };
