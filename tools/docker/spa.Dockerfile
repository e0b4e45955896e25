# One image recipe for both static apps (storefront, backoffice): a Vite build served by nginx.
# docker build -f tools/docker/spa.Dockerfile --build-arg APP=storefront --build-arg VITE_API_URL=https://api.example .
FROM node:20-slim AS build
ARG APP
ARG VITE_API_URL=""
WORKDIR /app
COPY package.json package-lock.json ./
COPY api/package.json api/
COPY shared-contracts/package.json shared-contracts/
COPY storefront/package.json storefront/
COPY backoffice/package.json backoffice/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json nx.json ./
COPY shared-contracts shared-contracts
COPY ${APP} ${APP}
RUN VITE_API_URL=${VITE_API_URL} npm run build -w @spc/${APP}

FROM nginx:1.27-alpine
ARG APP
COPY tools/docker/spa.nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/${APP}/dist /usr/share/nginx/html
EXPOSE 80
