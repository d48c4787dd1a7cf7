# Werkwissen: API or worker (`--role=api|worker|all`), served from a production install on Node 24.
# Build: docker build -t werkwissen .      Run the whole stack: docker compose up (see compose.yaml and the README).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
# npm install ends with scripts/node.sh, which finds this image's Node new enough and does nothing.
COPY scripts/node.sh scripts/
RUN npm install --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/web apps/web
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 PORT=4545
WORKDIR /app
# OCR of scans and photos: Tesseract with the packs of the nine interface languages, and poppler's pdftoppm; the
# German word list that splits compounds and the German thesaurus (synonyms) for search.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tesseract-ocr \
     tesseract-ocr-ara tesseract-ocr-deu tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-ita tesseract-ocr-pol \
     tesseract-ocr-por tesseract-ocr-rus tesseract-ocr-ukr poppler-utils wngerman mythes-de \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
COPY scripts/production-install.sh scripts/node.sh scripts/
RUN sh scripts/production-install.sh && npm cache clean --force
# Invoice PDFs are set in DejaVu Sans (Polish and Cyrillic letters; PDFKit's built-in fonts have Latin-1 only).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
# Questions in another language than the documents: FreeDict's bilingual dictionaries (DICTIONARY_PATH) and
# Apertium's Russian-Ukrainian analysers (APERTIUM_PATH, read with lttoolbox's lt-proc); GPL data, read at run time.
COPY scripts/freedict-pairs.txt scripts/
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
     $(sed 's/[a-z][a-z][a-z]-[a-z][a-z][a-z]/dict-freedict-&/g' scripts/freedict-pairs.txt) lttoolbox apertium-rus-ukr \
  && rm -rf /var/lib/apt/lists/*
COPY packages/shared/src packages/shared/src
COPY apps/server/src apps/server/src
COPY apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4545
# The API answers /api/v1/ready once its database and job queue answer; compose turns the check off for workers.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 4545) + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["node", "apps/server/src/main.ts"]
CMD ["--role=all"]
