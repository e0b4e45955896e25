#!/usr/bin/env bash
# `npm test`: every check, in stages, each stage's time printed as it ends and all of them at the
# end (what CI's time is made of). Stops at the first stage that fails, naming it.
set -uo pipefail
cd "$(dirname "$0")/../.."

started=$(date +%s)
times=()

stage() {
  local name="$1"
  shift
  local t0
  t0=$(date +%s)
  echo "== stage: $name"
  if ! bash -c "$*"; then
    echo "== stage failed: $name (after $(($(date +%s) - t0)) s)" >&2
    exit 1
  fi
  local took=$(($(date +%s) - t0))
  times+=("$(printf '%5d s  %s' "$took" "$name")")
  echo "== stage done: $name in $took s"
}

stage static 'npm run check:static'
stage build 'npm run build:ci'
stage deploy 'npm run check:deploy'
# The bench first, alone on the machine, so its figures mean what they say.
stage bench 'npm run bench:ci'
# Then everything else side by side, in two lanes: the API's e2e tests in one; in the other the
# browser journeys, then the drills and the fuzzer together. Each waits on its database, its
# browser, its timers and its killed processes much of the time, so one alone leaves a core idle.
# Each has its own databases and API processes; none measures time. The fuzzer makes 5 examples an
# operation here (every operation, every role; 10 by default when run alone): at 10 its four passes
# made 34,000 requests in 750-860 s each, beside the API's e2e tests.
lane_b="JOURNEYS_REUSE_BUILDS=1 npx nx run-many -t e2e --projects=@spc/storefront,@spc/backoffice --parallel=2 --exclude-task-dependencies && bash .ci/together 'drills=DRILL_SKIP_BUILD=1 npm run drills:ci' 'fuzz=FUZZ_SKIP_BUILD=1 FUZZ_MAX_EXAMPLES=5 npm run fuzz'"
stage 'api-e2e | journeys, then drills+fuzz' "bash .ci/together 'api-e2e=npx nx run @spc/api:e2e --exclude-task-dependencies' \"journeys-drills-fuzz=$lane_b\""

echo "== stages"
printf '%s\n' "${times[@]}"
echo "$(printf '%5d s' $(($(date +%s) - started)))  all of npm test"
