# Fundraiser partner API: the compiled service and operator CLI on node:20-slim (docs/deploy.md).
#   docker build -t fundraiser-partner-api .
#   docker run --env-file prod.env -p 3000:3000 fundraiser-partner-api
#   docker run --env-file prod.env fundraiser-partner-api node bin/fundraiser-admin.js migrate

# Build stage: every dependency (TypeScript included), then `npm run build` into dist/.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall edits PGlite and PDFKit (scripts/patch-pglite.js, scripts/patch-pdfkit.js).
COPY scripts/exact-edits.js scripts/patch-pglite.js scripts/patch-pdfkit.js scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.js scripts/
COPY src src
RUN npm run build

# Production dependencies only, installed apart so the build's dev dependencies never reach the image.
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/exact-edits.js scripts/patch-pglite.js scripts/patch-pdfkit.js scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-slim
# GLIBC_TUNABLES and the flags of CMD are package.json's start:prod (see docs/deploy.md, "Node flags").
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=32768 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY bin bin
# The embedded database's directory (unused with DATABASE_URL), owned by the unprivileged user that runs the service.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Readiness, not just liveness: database reachable and migrations current. Node's fetch: no curl in the slim image.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The flags of package.json's start:prod: one V8 worker thread, a smaller young generation (docs/deploy.md, "Node flags").
CMD ["node", "--v8-pool-size=1", "--max-semi-space-size=8", "dist/server.js"]
