/**
 * Loaded into the API by `npm run bench` when BENCH_PROFILE=1 (`node --require`): V8's CPU profiler,
 * the one behind `node --cpu-prof`, run through the inspector so that the bench can cut the profile
 * into phases (start-up, reads, orders). `--cpu-prof` writes only at a normal exit, and the API exits
 * through its shutdown hooks by re-raising the signal. Each SIGWINCH ends the current profile, writes it
 * to BENCH_PROFILE_DIR/<n>.cpuprofile (n = 0, 1, ...) and starts the next (SIGWINCH: the API's
 * shutdown hooks listen to SIGUSR2, and SIGUSR1 starts node's debugger).
 */
const { Session } = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let next = 0;
  process.on('SIGWINCH', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) {
        const file = path.join(dir, `${next++}.cpuprofile`);
        writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
        renameSync(`${file}.tmp`, file);
      }
      session.post('Profiler.start');
    });
  });
}
