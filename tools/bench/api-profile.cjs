/**
 * Loaded into the API by `npm run bench` when BENCH_PROFILE=1 (`node --require`), to see where its
 * time goes, per phase of the bench (start-up, reads, orders):
 * - V8's CPU profiler, the one behind `node --cpu-prof`, run through the inspector so that the bench
 *   can cut the profile into phases (`--cpu-prof` writes only at a normal exit, and the API exits
 *   through its shutdown hooks by re-raising the signal);
 * - every database command's time, from the MongoDB driver's command monitoring, by command and
 *   collection.
 * Each SIGWINCH ends the current phase: writes BENCH_PROFILE_DIR/<n>.cpuprofile and <n>.db.json
 * (n = 0, 1, ...) and starts the next. (SIGWINCH: the API's shutdown hooks listen to SIGUSR2, and
 * SIGUSR1 starts node's debugger.)
 */
const { Session } = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  /** `${command} ${collection}` -> { count, ms } for the current phase. */
  let commands = new Map();
  const started = new Map();
  const mongoose = require.resolve('mongoose', { paths: [process.cwd() + '/api'] });
  const { MongoClient } = require(require.resolve('mongodb', { paths: [mongoose] }));
  const connect = MongoClient.prototype.connect;
  MongoClient.prototype.connect = function (...args) {
    this.monitorCommands = true;
    this.on('commandStarted', (event) => {
      const collection = event.command[event.commandName];
      started.set(
        event.requestId,
        typeof collection === 'string' ? `${event.commandName} ${collection}` : event.commandName,
      );
    });
    const done = (event) => {
      const name = started.get(event.requestId) ?? event.commandName;
      started.delete(event.requestId);
      const entry = commands.get(name) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += event.duration;
      commands.set(name, entry);
    };
    this.on('commandSucceeded', done);
    this.on('commandFailed', done);
    return connect.apply(this, args);
  };

  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let next = 0;
  process.on('SIGWINCH', () => {
    const db = Object.fromEntries(commands);
    commands = new Map();
    session.post('Profiler.stop', (error, result) => {
      const file = path.join(dir, String(next++));
      writeFileSync(`${file}.db.json`, JSON.stringify(db));
      writeFileSync(
        `${file}.tmp`,
        JSON.stringify(error ? { error: error.message } : result.profile),
      );
      renameSync(`${file}.tmp`, `${file}.cpuprofile`);
      session.post('Profiler.start');
    });
  });
}
