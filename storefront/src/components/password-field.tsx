import { forwardRef, useState, type InputHTMLAttributes } from 'react';

/** A labelled password input with its own show/hide toggle (each toggles independently). */
export const PasswordField = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; name: string }
>(function PasswordField({ label, error, id, name, ...rest }, ref) {
  const [shown, setShown] = useState(false);
  const inputId = id ?? name;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="password-wrap">
        <input
          ref={ref}
          id={inputId}
          name={name}
          type={shown ? 'text' : 'password'}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${inputId}-error` : undefined}
          {...rest}
        />
        <button
          type="button"
          className="toggle"
          aria-label={shown ? `Hide ${label}` : `Show ${label}`}
          aria-pressed={shown}
          onClick={() => setShown((v) => !v)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      {error && (
        <p id={`${inputId}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
});
