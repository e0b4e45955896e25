/** The checkout's three steps, as the cart, the checkout and its shell show them. */
export const CHECKOUT_STEPS = ['Shopping Cart', 'Checkout', 'Order Complete'];

/** Progress header: Shopping Cart, Secure Checkout, Order Complete. */
export function Steps({ current, labels }: { current: number; labels: string[] }) {
  return (
    <ol className="steps" aria-label="Progress">
      {labels.map((label, i) => (
        <li
          key={label}
          className={i <= current ? 'done' : undefined}
          aria-current={i === current ? 'step' : undefined}
        >
          <span className="step-no" aria-hidden="true">
            {i + 1}
          </span>
          <span className="step-label">{label}</span>
        </li>
      ))}
    </ol>
  );
}
