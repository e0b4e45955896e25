import { Anchor, Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import {
  BACKOFFICE_MESSAGES,
  formatDate,
  ORGANISATION_KIND_LABELS,
  type OrganisationRole,
} from '@spc/shared-contracts';
import { errorMessage } from '@spc/shared-contracts/web-client';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useSessionRole } from '../../../lib/session-store';
import {
  useCatalogueUnits,
  useChangeRole,
  useInvite,
  useOrganisation,
  useOrganisationAction,
  useRemovePerson,
  useSetPriceList,
  useSetTerms,
  useUpdateOrganisation,
  useWithdrawInvitation,
  type OrganisationDetail,
} from '../api/organisations';
import { OrganisationDetailsForm } from '../components/organisation-details-form';
import { InviteForm, OrganisationPeople } from '../components/organisation-people';
import { OrganisationQuotations } from '../components/organisation-quotations';
import { OrganisationStatement } from '../components/organisation-statement';
import { OrganisationStatusPanel } from '../components/organisation-status-panel';
import {
  OrganisationTermsForm,
  OrganisationTermsView,
} from '../components/organisation-terms-form';
import { PriceListForm } from '../components/price-list-form';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function PeopleSection({ org }: { org: OrganisationDetail }) {
  const changeRole = useChangeRole(org._id);
  const remove = useRemovePerson(org._id);
  const withdraw = useWithdrawInvitation(org._id);
  const invite = useInvite(org._id);
  const [error, setError] = useState<string>();
  const said = (e: unknown) => setError(errorMessage(e, BACKOFFICE_MESSAGES.genericError));
  const busy = changeRole.isPending || remove.isPending || withdraw.isPending;
  return (
    <OrganisationPeople
      people={org.people}
      invitations={org.invitations}
      busy={busy}
      error={error}
      onChangeRole={(accountId, role: OrganisationRole) => {
        setError(undefined);
        changeRole.mutate({ accountId, role }, { onError: said });
      }}
      onRemove={(accountId) => {
        setError(undefined);
        remove.mutate(accountId, { onError: said });
      }}
      onWithdraw={(invitationId) => withdraw.mutate(invitationId)}
      invite={<InviteForm pending={invite.isPending} onSubmit={(v) => invite.mutateAsync(v)} />}
    />
  );
}

function AdminSections({ org }: { org: OrganisationDetail }) {
  const terms = useSetTerms(org._id);
  const priceList = useSetPriceList(org._id);
  const catalogue = useCatalogueUnits(true);
  return (
    <>
      <Section title="Terms">
        <OrganisationTermsForm
          key={JSON.stringify(org.terms)}
          initial={org.terms}
          pending={terms.isPending}
          onSubmit={(v) => terms.mutate(v)}
        />
      </Section>
      <Section title="Price list">
        {catalogue.isPending ? (
          <Loader size="sm" role="status" aria-label="Loading" />
        ) : (
          <PriceListForm
            key={JSON.stringify(org.priceList)}
            initial={{
              discountPercent: org.priceList.discountPercent,
              prices: org.priceList.prices.map(({ productId, unitId, price }) => ({
                productId,
                unitId,
                price,
              })),
            }}
            products={catalogue.data ?? []}
            pending={priceList.isPending}
            onSubmit={(v) => priceList.mutate(v)}
          />
        )}
      </Section>
    </>
  );
}

/**
 * /manage/organisations/:id: details, status, people, quotations, the statement; terms and price
 * list for admins.
 */
export function OrganisationDetailRoute() {
  const { id = '' } = useParams();
  const role = useSessionRole() ?? 'staff';
  const query = useOrganisation(id);
  const update = useUpdateOrganisation(id);
  const act = useOrganisationAction(id);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  if (query.isError)
    return (
      <Stack>
        <Text c="red" role="alert">
          {errorMessage(query.error, BACKOFFICE_MESSAGES.listError)}
        </Text>
        <Anchor component={Link} to={paths.manageOrganisations}>
          Back to organisations
        </Anchor>
      </Stack>
    );
  const org = query.data;
  return (
    <Stack>
      <Anchor component={Link} to={paths.manageOrganisations} size="sm">
        ← Organisations
      </Anchor>
      <Title order={2} style={{ overflowWrap: 'anywhere' }}>
        {org.name}
      </Title>
      <Text c="dimmed" size="sm">
        {ORGANISATION_KIND_LABELS[org.kind]} · KRA PIN {org.kraPin} · created{' '}
        {formatDate(org.createdAt)}
      </Text>
      <Section title="Status">
        <OrganisationStatusPanel
          status={org.status}
          reason={org.statusReason}
          role={role}
          pending={act.isPending}
          onAct={(action, reason) => act.mutateAsync({ action, reason })}
        />
      </Section>
      <Section title="Details and contacts">
        <OrganisationDetailsForm
          key={org.updatedAt}
          initial={{
            name: org.name,
            kraPin: org.kraPin,
            kind: org.kind,
            billingContact: org.billingContact,
            deliveryContact: org.deliveryContact,
          }}
          pending={update.isPending}
          onSubmit={(v) => update.mutate(v)}
        />
      </Section>
      <Section title="People">
        <PeopleSection org={org} />
      </Section>
      <Section title="Quotations">
        <OrganisationQuotations organisationId={org._id} approved={org.status === 'approved'} />
      </Section>
      <Section title="Statement">
        <OrganisationStatement organisationId={org._id} kraPin={org.kraPin} />
      </Section>
      {role === 'admin' ? (
        <AdminSections org={org} />
      ) : (
        <Section title="Terms">
          <OrganisationTermsView terms={org.terms} />
          <Text size="xs" c="dimmed" mt="xs">
            Only an admin sets the terms and the price list.
          </Text>
        </Section>
      )}
    </Stack>
  );
}
