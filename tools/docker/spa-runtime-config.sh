#!/bin/sh
# Runs as the nginx container starts (the official image runs /docker-entrypoint.d/*.sh): copies the
# app's build to the served folder and replaces the address placeholders with API_URL and
# BACKOFFICE_URL, so one image serves any domain. An empty API_URL means the page's own origin.
# It also writes the security headers (spa-security-headers.conf) with the Content-Security-Policy
# naming API_URL and IMAGES_URL (the image bucket's origin, when images are not on the API).
set -eu

src="${SPA_SOURCE_DIR:-/usr/share/nginx/spa}"
dst="${SPA_SERVED_DIR:-/usr/share/nginx/html}"
api_url="${API_URL:-}"
backoffice_url="${BACKOFFICE_URL:-}"
images_url="${IMAGES_URL:-}"
headers_template="${SPA_HEADERS_TEMPLATE:-/etc/nginx/spa-security-headers.conf.template}"
headers_file="${SPA_HEADERS_FILE:-/etc/nginx/spa-security-headers.conf}"

for pair in "API_URL=$api_url" "BACKOFFICE_URL=$backoffice_url" "IMAGES_URL=$images_url"; do
  value="${pair#*=}"
  if ! printf '%s\n' "$value" | grep -Eq '^(https?://[A-Za-z0-9.-]+(:[0-9]+)?)?$'; then
    echo "spa-runtime-config: ${pair%%=*} must be an origin such as https://api.example.co.ke (got '$value')" >&2
    exit 1
  fi
done

rm -rf "${dst:?}"/*
cp -R "$src"/. "$dst"/
grep -rlE '__SPC_(API|BACKOFFICE)_URL__' "$dst" | while read -r file; do
  sed -i -e "s#__SPC_API_URL__#${api_url}#g" -e "s#__SPC_BACKOFFICE_URL__#${backoffice_url}#g" "$file"
done
sed -e "s#__SPC_CSP_API__#${api_url}#g" -e "s#__SPC_CSP_IMAGES__#${images_url}#g" \
  -e 's/  */ /g' -e 's/ ;/;/g' "$headers_template" >"$headers_file"

if [ -n "$api_url" ]; then
  echo "spa-runtime-config: API at $api_url"
else
  echo "spa-runtime-config: API at the page's own origin"
fi
