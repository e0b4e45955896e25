import { ErrorState, Loading } from '../../../components/states';
import { useNotice } from '../api/privacy';
import { DataRequestForm } from '../components/data-request-form';
import { NoticeText } from '../components/notice-text';
import '../privacy.css';

/** The privacy notice (issue 31), and the request form of people without an account. */
export function PrivacyRoute() {
  const { data, isPending, isError } = useNotice();
  if (isPending) return <Loading />;
  if (isError) return <ErrorState />;
  const { controller } = data;
  return (
    <div className="page narrow privacy-notice">
      <h1>Privacy notice</h1>
      <p>
        <strong>{controller.name}</strong> is responsible for your personal data (the data
        controller). Phone <a href={`tel:${controller.phone}`}>{controller.phone}</a>, e-mail{' '}
        <a href={`mailto:${controller.email}`}>{controller.email}</a>.
      </p>
      <NoticeText text={data.text} />
      <section className="privacy-request" aria-labelledby="ask-about-data">
        <h2 id="ask-about-data">Ask about your data without an account</h2>
        <p className="muted">
          Give the purchase number of one of your orders and the phone you gave with it: the code is
          sent by SMS if they match a guest order. With an account, use your profile instead.
        </p>
        <DataRequestForm />
      </section>
    </div>
  );
}
