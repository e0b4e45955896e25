import { Link } from 'react-router';
import nursery from '../../../assets/art/about-nursery.svg';
import { paths } from '../../../config/paths';
import { assetUrl } from '../../../lib/api-client';
import { useSitePictures } from '../../../lib/site-pictures';

export function AboutRoute() {
  const own = useSitePictures().about;
  return (
    <div className="page narrow">
      <h1>About us</h1>
      <img
        className="about-picture"
        src={own ? assetUrl(own.url) : nursery}
        alt="Trays of young seedlings in the nursery's shade house"
        width={800}
        height={400}
      />
      <p>
        The Seedling Propagation Centre in Kiambu, Kenya is a supplier of quality, resilient
        seedlings: fruits, vegetables, herbs and spices, flowers and forestry trees, raised with
        care by our nursery team.
      </p>
      <p>
        With 400+ varieties, quick delivery and a 100% money-back promise if an item does not suit
        you, we help farmers, gardeners and institutions grow with expert support.
      </p>
      <Link to={paths.shop} className="btn">
        Visit our shop
      </Link>
    </div>
  );
}
