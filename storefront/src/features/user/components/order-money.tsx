import {
  formatDateTime,
  formatMoney,
  MONEY_TEXTS,
  moneyCodeText,
  customerMoneyHowText,
  moneyNotes,
  type OrderMoney,
} from '@spc/shared-contracts';

/**
 * What the shop received on the customer's order and what it gave back, entry by entry (when, how,
 * the M-Pesa code), with the totals; the shop's staff are never named.
 */
export function OrderMoneySection({ money }: { money: OrderMoney }) {
  return (
    <section className="order-card" aria-labelledby="order-money-title">
      <h2 id="order-money-title">Payments and refunds</h2>
      {money.entries.length === 0 ? (
        <p className="muted">{MONEY_TEXTS.none}</p>
      ) : (
        <>
          <ul className="receipt-lines" aria-label="Payments and refunds">
            {money.entries.map((e) => {
              const incoming = e.direction === 'in';
              const code = moneyCodeText(e);
              const notes = moneyNotes(e);
              return (
                <li key={e.id} data-testid="money-entry">
                  <span className="receipt-row">
                    <span className="money-what">
                      <strong>{incoming ? 'Received' : 'Refunded'}</strong> ·{' '}
                      {customerMoneyHowText(e)}
                    </span>
                    <span className="amount">
                      {incoming ? formatMoney(e.amount) : `− ${formatMoney(e.amount)}`}
                    </span>
                  </span>
                  <span className="muted small money-when">
                    {formatDateTime(e.at)}
                    {code ? ` · ${code}` : ''}
                  </span>
                  {notes.length > 0 && (
                    <span className="muted small money-when">
                      {notes.map((n, i) => (
                        <span key={n} className="money-note">
                          {i > 0 && ' · '}
                          {n}
                        </span>
                      ))}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          <dl className="receipt-totals">
            <div className="receipt-row">
              <dt>Received</dt>
              <dd className="amount">{formatMoney(money.received)}</dd>
            </div>
            <div className="receipt-row">
              <dt>Refunded</dt>
              <dd className="amount">{formatMoney(money.refunded)}</dd>
            </div>
          </dl>
        </>
      )}
    </section>
  );
}
