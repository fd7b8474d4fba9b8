# syntax=docker/dockerfile:1
# Flagpole: docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD) -t flagpole .
#           docker run -p 8080:8080 -p 9000:9000 -v flagpole-data:/data flagpole
# Configuration comes from FLAGPOLE_* variables (docs/configuration.md) or a file (FLAGPOLE_CONFIG=/etc/flagpole/config.yml).
# Node 24, the active LTS (Node 20 reached its end of life on 2026-04-30): docs/deployment.md, "Node.js version".
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app

# sqlite3 compiles from source when no prebuilt binary fits: the toolchain lives in the build stages only.
FROM base AS toolchain
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./

# Production dependencies only: this node_modules is what the image ships.
FROM toolchain AS deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Everything, to compile TypeScript to dist/.
FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# The web UI (React + Vite), built into dist/web by the same `npm run build`.
COPY ui ./ui
# No .git in the build context: the commit shown by /meta/info comes from this argument.
ARG BUILD_COMMIT=""
RUN BUILD_COMMIT="${BUILD_COMMIT}" npm run build

FROM base AS runtime
LABEL org.opencontainers.image.title="Flagpole" \
      org.opencontainers.image.description="Feature-flag server, wire-compatible with Flipt v1's REST API" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production \
    FLAGPOLE_DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY migrations ./migrations
COPY --from=build /app/dist ./dist
# The default SQLite database lives in /data; the rest of the image stays read-only to the server.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
# HTTP (REST API, /health, /metrics) and gRPC (grpc.health.v1.Health).
EXPOSE 8080 9000
# /health checks the database too; the port follows FLAGPOLE_SERVER_HTTP_PORT when that is how it is set.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.FLAGPOLE_SERVER_HTTP_PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: readiness and gRPC health go NOT_SERVING, requests in flight finish, exit 0 within 25 s
# (docker stop waits 10 s by default: use --stop-timeout 30).
CMD ["node", "dist/main.js"]
