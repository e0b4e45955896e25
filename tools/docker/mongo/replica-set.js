/* global rs, quit -- mongosh's shell globals */
// The mongo service's healthcheck (mongosh --file): makes this node a replica set of one member
// the first time (rs0, host mongo:27017), then answers healthy once it is primary or secondary.
// The `replica-set` profile's mongo-init service adds the two other members (add-members.js).
let state;
try {
  state = rs.status().myState;
} catch (error) {
  if (error.codeName !== 'NotYetInitialized' && !/no replset config/i.test(String(error)))
    throw error;
  rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] });
  quit(1);
}
// 1: primary, 2: secondary.
quit(state === 1 || state === 2 ? 0 : 1);
