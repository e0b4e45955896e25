import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import '../auth.css';

/** Two columns: the form and a drawn picture (hidden under 768 px). No navigation or footer. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-form">
        <Link to={paths.home} className="auth-brand">
          SPC Seedlings
        </Link>
        <h1>{title}</h1>
        {children}
        <p className="muted small">
          <Link to={paths.home}>Back to home</Link>
        </p>
        <p className="muted small">
          © {new Date().getFullYear()} Seedling Propagation Centre. By continuing you agree to our
          terms and conditions.
        </p>
      </div>
      <div className="auth-art" aria-hidden="true">
        <svg viewBox="0 0 200 200" width="100%" height="100%" preserveAspectRatio="xMidYMid slice">
          <rect width="200" height="200" fill="#2f6b2f" />
          <circle cx="150" cy="40" r="22" fill="#f5d76e" />
          <path d="M0 160 Q50 130 100 160 T200 150 V200 H0Z" fill="#5c9a45" />
          <path
            d="M100 165V110m0 10c-18 0-24-12-24-26 18 0 24 12 24 26zm0 6c0-18 10-28 28-28 0 18-10 28-28 28z"
            fill="#bfe3a5"
          />
        </svg>
      </div>
    </main>
  );
}
