#!/usr/bin/env node
// Fails when code or tests cite what a reader of this repository cannot open: an issue number of a tracker that is
// not in the repository, or the design notes (DESIGN.md) that the decision records replaced. Code cites
// docs/contract.md by section and docs/decisions/NNNN-….md by path (docs/decisions/README.md); every docs/….md path
// mentioned in src/ and test/ must exist. Checked in `npm run lint`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOREIGN = /[Ii]ssues? [0-9]+|DESIGN\.md/;
const DOC_PATH = /(?<![\w/.-])docs\/[\w/.-]+\.md/g;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

const problems = [];
let files = 0;
for (const top of ['src', 'test']) {
  for (const path of filesUnder(join(root, top))) {
    files += 1;
    const name = relative(root, path);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const where = `${name}:${index + 1}`;
        const foreign = FOREIGN.exec(line);
        if (foreign) problems.push(`${where}: cites "${foreign[0]}"; cite docs/decisions/… or say the reason`);
        for (const [doc] of line.matchAll(DOC_PATH))
          if (!existsSync(join(root, doc))) problems.push(`${where}: ${doc} does not exist`);
      });
  }
}

if (problems.length > 0) {
  console.error(`References a reader of this repository cannot follow:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`references: OK (${files} files under src/ and test/; no issue numbers, every docs path exists)`);
