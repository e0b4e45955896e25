import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useShopContacts } from '../../lib/shop-contacts';

export function Footer() {
  const shop = useShopContacts();
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
            <li>
              <Link to={paths.organisations}>For organisations</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Important links">
          <h2>Important links</h2>
          <ul>
            <li>
              <Link to={paths.privacy}>Privacy Policy</Link>
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
          {shop && (
            <>
              <p>
                Phone: <a href={`tel:${shop.phone.replace(/\s/g, '')}`}>{shop.phone}</a>
              </p>
              <p>
                WhatsApp:{' '}
                <a href={`https://wa.me/${shop.whatsappDigits}`} target="_blank" rel="noreferrer">
                  {shop.whatsapp}
                </a>
              </p>
              <p>
                E-mail: <a href={`mailto:${shop.email}`}>{shop.email}</a>
              </p>
            </>
          )}
        </address>
      </div>
      <p className="copyright">
        © {new Date().getFullYear()} Seedling Propagation Centre. All rights reserved.
      </p>
    </footer>
  );
}
