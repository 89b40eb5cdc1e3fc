import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/index.js';

describe('docs/deploy.md', () => {
  it('lists every setting of src/config/ in its settings table', () => {
    const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    const missing = Object.keys(ConfigSchema.properties).filter((name) => !doc.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });
});
