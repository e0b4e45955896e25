import { Link } from 'react-router';
import { env } from '../../config/env';
import { paths } from '../../config/paths';

export function Footer() {
  const wa = env.shopWhatsapp.replace(/\D/g, '');
  return (
    <footer className="footer">
      <div className="footer-grid">
        <div>
          <h2>Seedling Propagation Centre</h2>
          <p>Quality, resilient seedlings for farms, gardens and forests.</p>
        </div>
        <nav aria-label="Quick links">
          <h2>Quick links</h2>
          <ul>
            <li>
              <Link to={paths.home}>Introduction</Link>
            </li>
            <li>
              <Link to={paths.about}>About Us</Link>
            </li>
            <li>
              <Link to={paths.shop}>Visit Store</Link>
            </li>
            <li>
              <Link to={paths.contact}>Let&apos;s Connect</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Important links">
          <h2>Important links</h2>
          <ul>
            <li>
              <Link to={paths.home}>Privacy Policy</Link>
            </li>
            <li>
              <Link to={paths.shop}>Shipping Details</Link>
            </li>
            <li>
              <Link to={paths.home}>Terms &amp; Conditions</Link>
            </li>
            <li>
              <Link to={paths.shop}>Media Kit</Link>
            </li>
          </ul>
        </nav>
        <address>
          <h2>Contact</h2>
          <p>Kiambu, Kenya</p>
          <p>
            Phone: <a href={`tel:${env.shopPhone.replace(/\s/g, '')}`}>{env.shopPhone}</a>
          </p>
          <p>
            WhatsApp:{' '}
            <a href={`https://wa.me/${wa}`} target="_blank" rel="noreferrer">
              {env.shopWhatsapp}
            </a>
          </p>
          <p>
            E-mail: <a href={`mailto:${env.shopEmail}`}>{env.shopEmail}</a>
          </p>
        </address>
      </div>
      <p className="copyright">
        © {new Date().getFullYear()} Seedling Propagation Centre. All rights reserved.
      </p>
    </footer>
  );
}
