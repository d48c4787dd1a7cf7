#!/usr/bin/env sh
# The production install, as the container image runs it (Dockerfile) and as the deployment test repeats it outside
# a container: the server's runtime dependencies only (no web tool chain, no test tools). The web app is built
# beforehand (`npm run build`) and only its apps/web/dist is kept.
set -eu
cd "$(dirname "$0")/.."
npm install --omit=dev --no-audit --no-fund --workspace apps/server
