/* global rs, print -- mongosh's shell globals */
// The `replica-set` profile's one-shot mongo-init service (mongosh --host mongo --file): adds
// mongo-2 and mongo-3 to the set the first node started (replica-set.js). Run again, it adds
// nothing: members already there are left as they are.
const wanted = ['mongo-2:27017', 'mongo-3:27017'];
const have = rs.conf().members.map((m) => m.host);
for (const host of wanted) {
  if (!have.includes(host)) {
    rs.add({ host });
    print(`added ${host}`);
  }
}
print(
  `members: ${rs
    .conf()
    .members.map((m) => m.host)
    .join(', ')}`,
);
