import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';

export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <p className="state" role="status">
      {label}
    </p>
  );
}

export function ErrorState({
  message = STOREFRONT_MESSAGES.somethingWentWrongList,
}: {
  message?: string;
}) {
  return (
    <p className="state state-error" role="alert">
      {message}
    </p>
  );
}

export function Empty({ message }: { message: string }) {
  return <p className="state">{message}</p>;
}
