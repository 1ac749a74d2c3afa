# syntax=docker/dockerfile:1

# ---- build: all dependencies, compile TypeScript -------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY test ./test
COPY bench ./bench
RUN npx tsc -p . && rm -rf dist/test dist/bench

# ---- production dependencies only -----------------------------------------------------------
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime: compiled JS, production dependencies, non-root, data in a volume ---------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOUSEHOLD_DATA_DIR=/data \
    HOUSEHOLD_HOST=0.0.0.0 \
    HOUSEHOLD_PORT=8080
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY package.json ./
COPY config ./config
COPY bin ./bin
RUN mkdir -p /data && chown node:node /data && chmod 0755 bin/household-organizer
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HOUSEHOLD_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Exec form: node is PID 1 and gets SIGTERM from `docker stop` itself; the daemon handles it
# (drain, commit, close LMDB within 10 s), so no init process is needed.
ENTRYPOINT ["node", "/app/bin/household-organizer"]
CMD ["serve"]
