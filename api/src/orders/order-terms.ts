/**
 * Orders on account (issue 43): made from an accepted quotation of an organisation whose terms let
 * it order on account. The order table says what differs for them (`ORDER_RULES`'
 * `notOnAccountFor`): this is the filter its guards and the loops' queries use to leave them out.
 */
export const NOT_ON_ACCOUNT = { onAccount: { $ne: true } } as const;
