/**
 * Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=<dir> npm run bench`): self time by function and by package
 * or source file, so a profile can be quoted as evidence without a GUI.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [pattern…]
 *
 * Each pattern (a regular expression over "function url") also gets its inclusive time: the samples in which a
 * matching frame is on the stack, e.g. `normaliseDonation` or `libphonenumber`.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function main() {
  const [file, topArg, ...patterns] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const where = shortUrl(frame.url);
    add(byFunction, `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`, us);
    add(byModule, moduleOf(frame.url, frame.functionName), us);
  }
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`\n${title} (total ${(total / 1000).toFixed(0)} ms)\n`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}\n`);
    }
  };
  print('self time by package / source file', byModule);
  print('self time by function', byFunction);
  if (patterns.length > 0) printInclusive(profile, byId, patterns, total);
}

/** Time of the samples whose stack holds a frame matching each pattern (counted once per sample). */
function printInclusive(profile: Profile, byId: Map<number, ProfileNode>, patterns: string[], total: number) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const regexes = patterns.map((p) => new RegExp(p));
  const inclusive = patterns.map(() => 0);
  profile.samples.forEach((id, i) => {
    const hit = regexes.map(() => false);
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const label = `${frame.functionName} ${frame.url}`;
      regexes.forEach((re, j) => {
        if (!hit[j] && re.test(label)) hit[j] = true;
      });
    }
    hit.forEach((h, j) => {
      if (h) inclusive[j] = inclusive[j]! + (profile.timeDeltas[i] ?? 0);
    });
  });
  process.stdout.write(`\ninclusive time (total ${(total / 1000).toFixed(0)} ms)\n`);
  patterns.forEach((p, j) =>
    process.stdout.write(
      `${((100 * inclusive[j]!) / total).toFixed(1).padStart(5)}%  ${(inclusive[j]! / 1000).toFixed(0).padStart(6)} ms  ${p}\n`,
    ),
  );
}

function add(map: Map<string, number>, key: string, us: number) {
  map.set(key, (map.get(key) ?? 0) + us);
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  const src = url.search(/\/(src|dist|bench)\//);
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
}

/** The npm package, the source file of this repository, or the V8/Node category of a frame. */
function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) {
    const rest = url.slice(i + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  return shortUrl(url);
}

main();
