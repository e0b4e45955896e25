/**
 * The write concern of money writes (orders: placement and payments; refunds; M-Pesa prompts and
 * their callbacks): acknowledged only once a majority of the replica set holds them, so a failover
 * cannot roll back a payment the shop already answered for. On one node (and SecantusDB) a majority
 * is that node. Set on those schemas, so every write of theirs carries it whatever the URI says.
 */
export const MONEY_WRITE_CONCERN = { w: 'majority', wtimeout: 10_000 } as const;
