// Loaded into the service with `node --import` when BENCH_MEMORY_DETAIL=1 (bench/service.ts): where the service's
// resident memory is at its highest sample, split into V8's heap and what is native (PGlite's WebAssembly memory,
// compiled code, malloc, the binary), written as JSON to BENCH_MEMORY_PROBE_FILE at each new high. It changes
// nothing the service does; the bench's peak figures stay VmHWM, read from outside (bench/process-memory.ts).
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_MEMORY_PROBE_FILE;
const memories = new Set();
const MB = 1024 * 1024;

// PGlite's WebAssembly memory is not reachable from outside its module: its constructor (PGlite creates the memory
// it imports) or an instantiation (a module that exports its own) hands it over.
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct(target, args, newTarget) {
    const memory = Reflect.construct(target, args, newTarget);
    memories.add(memory);
    return memory;
  },
});
const keepMemories = (exports) => {
  for (const value of Object.values(exports ?? {})) if (value instanceof WebAssembly.Memory) memories.add(value);
  return exports;
};
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  keepMemories((result.instance ?? result).exports);
  return result;
};
const instantiateStreaming = WebAssembly.instantiateStreaming;
if (instantiateStreaming)
  WebAssembly.instantiateStreaming = async function (...args) {
    const result = await instantiateStreaming.apply(this, args);
    keepMemories(result.instance.exports);
    return result;
  };

/** Resident kB of the process's mappings, by kind (Linux /proc/self/smaps). */
function residentByKind(wasmKb) {
  const kinds = { wasmMemory: 0, code: 0, files: 0, brk: 0, otherAnonymous: 0 };
  let text;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  let kind = 'otherAnonymous';
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const sizeKb = (parseInt(header[2], 16) - parseInt(header[1], 16)) / 1024;
      const [, , , perms, path] = header;
      if (path.startsWith('/')) kind = 'files';
      else if (path === '[heap]') kind = 'brk';
      else if (perms.includes('x')) kind = 'code';
      else if (perms.startsWith('rw') && wasmKb.has(sizeKb)) kind = 'wasmMemory';
      else kind = 'otherAnonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds[kind] += Number(rss[1]);
  }
  return Object.fromEntries(Object.entries(kinds).map(([k, kb]) => [k, Math.round(kb / 102.4) / 10]));
}

let highest = 0;
function sample() {
  const rss = process.memoryUsage.rss();
  // A new high by at least 2 MB: smaps is read only then, not every tick.
  if (rss < highest + 2 * MB) return;
  highest = rss;
  const usage = process.memoryUsage();
  const wasmBytes = [...memories].reduce((sum, memory) => sum + memory.buffer.byteLength, 0);
  const mb = (bytes) => Math.round(bytes / (MB / 10)) / 10;
  const report = {
    rssMb: mb(usage.rss),
    heapTotalMb: mb(usage.heapTotal),
    heapUsedMb: mb(usage.heapUsed),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
    wasmMemoryMb: mb(wasmBytes),
    nativeMb: mb(usage.rss - usage.heapTotal),
    resident: residentByKind(new Set([...memories].map((memory) => memory.buffer.byteLength / 1024))),
    uptimeS: Math.round(process.uptime()),
  };
  writeFileSync(file, `${JSON.stringify(report)}\n`);
}

if (file) setInterval(sample, 200).unref();
