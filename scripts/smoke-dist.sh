#!/usr/bin/env bash
# Builds dist/, lays it out as the Dockerfile's last stage does (dist/, bin/, package.json and production
# dependencies only, from the lockfile) in a temporary folder, and runs it there as production would
# (scripts/smoke-dist.ts): probes, /v1/ping, the compiled CLI, the Stripe mandate path. No Docker engine needed.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build
app_dir="$(mktemp -d "${TMPDIR:-/tmp}/smoke-image-XXXXXX")"
trap 'rm -rf "$app_dir"' EXIT
cp -r package.json package-lock.json dist bin "$app_dir/"
# npm ci runs the postinstall that edits PGlite and PDFKit, as the image's install does.
mkdir -p "$app_dir/scripts" && cp scripts/exact-edits.js scripts/patch-pglite.js scripts/patch-pdfkit.js "$app_dir/scripts/"
(cd "$app_dir" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
SMOKE_APP_DIR="$app_dir" npx tsx scripts/smoke-dist.ts
