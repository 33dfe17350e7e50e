# One image for every app; the command picks the app (dist/apps/<app>/main.js).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
# A heap ceiling of about 1.4x the largest live heap measured (gateway ~45 MB after a full collection
# under load): without it V8 lets the heap grow to over 250 MB RSS before collecting. See
# docs/benchmarks.md (memory). npm start and the test suites read this line too.
ENV NODE_OPTIONS="--max-old-space-size=64 --max-semi-space-size=4"
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY scripts/container-healthcheck.js ./scripts/
# The node image's unprivileged user (uid 1000), as deploy/k8s's runAsUser expects.
USER node
# /health/live of whichever app the command started (its PORT, PROXY_PORT or HEALTH_PORT).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "scripts/container-healthcheck.js"]
CMD ["node", "dist/apps/gateway/main.js"]
