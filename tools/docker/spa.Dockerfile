# One image recipe for both static apps (storefront, backoffice): a Vite build served by nginx.
#   docker build -f tools/docker/spa.Dockerfile --build-arg APP=storefront -t spc-storefront .
# The API's address is not baked in: the build carries placeholders that the container fills from
# API_URL and BACKOFFICE_URL when it starts (tools/docker/spa-runtime-config.sh), so one image serves
# any domain. A build argument with a real address (VITE_API_URL=https://api.example) still works.

FROM node:20-slim AS build
ARG APP=storefront
ARG VITE_API_URL=__SPC_API_URL__
ARG VITE_BACKOFFICE_URL=__SPC_BACKOFFICE_URL__
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY shared-contracts/package.json shared-contracts/
COPY storefront/package.json storefront/
COPY backoffice/package.json backoffice/
# The apps need no native modules: install scripts (argon2's compiler run) are skipped.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json nx.json ./
COPY shared-contracts shared-contracts
COPY ${APP} ${APP}
# Vite reads shared-contracts from its sources (see vite.config.ts): no separate build of it.
RUN VITE_API_URL=${VITE_API_URL} VITE_BACKOFFICE_URL=${VITE_BACKOFFICE_URL} \
     npm run build -w @spc/${APP}

FROM nginx:1.27-alpine AS runtime
ARG APP=storefront
ENV API_URL="" BACKOFFICE_URL="" IMAGES_URL=""
COPY tools/docker/spa.nginx.conf /etc/nginx/conf.d/default.conf
COPY tools/docker/spa-security-headers.conf /etc/nginx/spa-security-headers.conf.template
COPY tools/docker/spa-runtime-config.sh /docker-entrypoint.d/40-spa-runtime-config.sh
# The pristine build: each start copies it to the served folder and fills in the addresses.
COPY --from=build /app/${APP}/dist /usr/share/nginx/spa
RUN chmod 0755 /docker-entrypoint.d/40-spa-runtime-config.sh \
  && rm -rf /usr/share/nginx/html && mkdir -p /usr/share/nginx/html
EXPOSE 80
HEALTHCHECK --interval=15s --timeout=3s --retries=3 CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1/"]
