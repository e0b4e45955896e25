import { formatDate, trackingSteps, type OrderStatus } from '@spc/shared-contracts';
import '../tracking.css';

/** Order Received, In Transit, Delivered: done steps green, others grey. */
export function Timeline({
  status,
  dates,
}: {
  status: OrderStatus;
  dates: { received?: string | null; inTransit?: string | null; delivered?: string | null };
}) {
  const done = trackingSteps(status);
  const steps = [
    { label: 'Order Received', done: done.received, date: dates.received },
    { label: 'In Transit', done: done.inTransit, date: dates.inTransit },
    { label: 'Delivered', done: done.delivered, date: dates.delivered },
  ];
  return (
    <ol className="timeline">
      {steps.map((s) => (
        <li key={s.label} className={s.done ? 'done' : 'todo'} data-done={s.done}>
          <span className="dot" aria-hidden="true" />
          <strong>{s.label}</strong>
          <span className="sr-only">{s.done ? ' (done)' : ' (not yet)'}</span>
          <span className="muted">{s.done && s.date ? formatDate(s.date) : ''}</span>
        </li>
      ))}
    </ol>
  );
}
