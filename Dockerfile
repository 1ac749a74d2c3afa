# syntax=docker/dockerfile:1

# The base image: Node.js 26, the Active LTS line since 2026-10-28 (security fixes until
# 2029-04-30), the line the test suite runs on in CI (.ci/run, the release in .node-version).
# Node 20 reached end of life on 2026-04-30; Node 24 is in maintenance (until 2028-04-30). The
# program needs Node >= 22.12 (package.json "engines"), so 24 is one build argument away:
#   docker build --build-arg NODE_IMAGE=node:24-trixie-slim .
# Install scripts of dependencies never run (.npmrc: ignore-scripts; package.json allowScripts).
# Debian 13 (trixie) slim: glibc for LMDB's prebuilt N-API binary, so no compiler is needed.
ARG NODE_IMAGE=node:26-trixie-slim

# ---- build: all dependencies, compile TypeScript -------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.types.json ./
COPY src ./src
COPY test ./test
COPY bench ./bench
# The daemon (dist/src), then the family display's browser script (src/display/tsconfig.json:
# ES2017 modules in dist/browser, checked against the domain's types in dist/types).
RUN npx tsc -p . && npx tsc -b src/display && rm -rf dist/test dist/bench dist/types

# ---- production dependencies only -----------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime: compiled JS, production dependencies, non-root, data in a volume ---------------
FROM ${NODE_IMAGE} AS runtime
ARG NODE_IMAGE
# Keep VERSION equal to package.json's version (test/docker.unit.test.ts checks it); pass
# REVISION and CREATED from the build: --build-arg REVISION=$(git rev-parse HEAD)
# --build-arg CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="Household Organizer" \
      org.opencontainers.image.description="Self-hosted daemon serving a family-scoped JSON REST API for a household's data" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
# HOUSEHOLD_IMAGE: the start banner tells other devices to use the host's published port, since
# the interfaces it sees are the container's (src/banner.ts).
ENV NODE_ENV=production \
    HOUSEHOLD_IMAGE=1 \
    HOUSEHOLD_DATA_DIR=/data \
    HOUSEHOLD_HOST=0.0.0.0 \
    HOUSEHOLD_PORT=8080
WORKDIR /app
# The program's files belong to root: the `node` user that runs it can read them, not change them.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The display's script, which the daemon reads from dist/browser when it starts.
COPY --from=build /app/dist/browser ./dist/browser
COPY package.json ./
COPY config ./config
COPY bin ./bin
# /data holds every family's records and live share links: private to the `node` user. A new
# named volume takes this owner and mode from the image. The command line goes on PATH, so
# `docker exec household household-organizer key create home` works as the README writes it
# (a symlink: the executable finds dist/ next to its real path, /app/bin).
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data \
 && chmod 0755 bin/household-organizer \
 && ln -s /app/bin/household-organizer /usr/local/bin/household-organizer
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HOUSEHOLD_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Exec form: node is PID 1 and gets SIGTERM from `docker stop` itself; the daemon handles it
# (drain, commit, close LMDB within 10 s), so no init process is needed. Give it the time:
# `docker stop -t 15` or compose's stop_grace_period (compose.yaml).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/bin/household-organizer"]
CMD ["serve"]
