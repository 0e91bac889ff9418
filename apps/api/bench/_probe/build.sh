#!/bin/bash
# usage: build.sh OUTDIR
set -e
cd /work/main/apps/web
npx vite build --outDir "$1" --emptyOutDir --logLevel warn
npx vite build --ssr --outDir "$1-server" --emptyOutDir --logLevel warn
node scripts/precompress.mjs "$1" > /dev/null
