// Applies a postinstall's exact-text edits to a pinned package in node_modules (scripts/patch-pglite.js,
// scripts/patch-pdfkit.js). Each edit replaces text that must be there; a file that already has the new text is left
// alone, so installing twice is harmless. Another version of the package is left as it is, with a warning: the
// edits were written against one version's text, and a newer version may not need them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const nodeModules = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');

/**
 * @param {string} script the calling script, for its messages
 * @param {string} name the package
 * @param {string} version the version the edits were written for
 * @param {[string, string, string][]} edits [file in the package, text before, text after]
 */
export function applyExactEdits(script, name, version, edits) {
  const root = join(nodeModules, name);
  if (!existsSync(join(root, 'package.json'))) return; // not installed (e.g. a partial install): nothing to do
  const installed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  if (installed !== version) {
    console.warn(`${script}: ${name} ${installed} installed, written for ${version}; left as it is`);
    return;
  }
  for (const [file, before, after] of edits) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    if (text.includes(after)) continue;
    if (!text.includes(before)) throw new Error(`${script}: ${file} has neither the old nor the new text`);
    writeFileSync(path, text.replace(before, after));
  }
}
