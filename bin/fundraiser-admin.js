#!/usr/bin/env node
// The project runs its TypeScript through tsx, without a build step: this launcher loads the operator CLI's
// source with tsx's loader (scoped to this import, so nothing else in the process is affected) and runs it.
import { tsImport } from 'tsx/esm/api';

const { runCli } = await tsImport('../src/cli/main.ts', import.meta.url);
process.exitCode = await runCli(process.argv.slice(2));
