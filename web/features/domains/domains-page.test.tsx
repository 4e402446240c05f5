import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '@contracts/domains';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeDomain,
  makeUser,
  preloadSignedInFrame,
  renderApp,
} from '../../test/test-utils';
import { makeChecks, makeDetail, stubDomains } from './test/fixtures';

// Load the lazy chunks once up front, so the first test does not spend its wait on module loading.
beforeAll(async () => {
  await Promise.all([import('./domains-page'), preloadSignedInFrame()]);
});

async function openPage() {
  const view = renderApp('/domains');
  await screen.findByTestId('domains-page');
  return view;
}

async function card(domain: string) {
  const found = await screen.findAllByTestId('domain-card');
  const match = found.find((element) => element.getAttribute('data-domain') === domain);
  if (!match) throw new Error(`No card for ${domain}`);
  return match;
}

async function openMenuItem(
  user: ReturnType<typeof userEvent.setup>,
  domain: string,
  item: 'Edit Domain' | 'Delete Domain',
) {
  const cardElement = await card(domain);
  await user.click(within(cardElement).getByRole('button', { name: `Actions for ${domain}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('Domains: list and status badge', () => {
  it.each([
    ['healthy', 'Verified'],
    ['warning', 'Issues'],
    ['error', 'Critical'],
    ['pending', 'Pending'],
  ] as const)('shows status %s as "%s"', async (status, label) => {
    stubDomains([makeDomain({ status, domain: `${status}.example.com` })]);
    await openPage();
    const element = await card(`${status}.example.com`);
    expect(within(element).getByTestId('domain-status')).toHaveTextContent(label);
  });

  it('shows each domain as a card with its name, added-on date, Verify DNS and actions', async () => {
    stubDomains([
      makeDomain(),
      makeDomain({ id: 2, domain: 'news.example.org', createdAt: '2025-02-03T12:00:00.000Z' }),
    ]);
    await openPage();
    const first = within(await card('example.com'));
    expect(first.getByRole('heading', { name: 'example.com' })).toBeInTheDocument();
    expect(first.getByText('Added on Jan 15, 2025')).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Verify DNS' })).toBeEnabled();
    expect(first.getByRole('button', { name: 'Actions for example.com' })).toBeInTheDocument();
    expect(within(await card('news.example.org')).getByText('Added on Feb 3, 2025')).toBeInTheDocument();
    expect(screen.getAllByTestId('domain-card')).toHaveLength(2);
  });

  it('shows the empty state, whose button opens the add form', async () => {
    stubDomains([]);
    await openPage();
    expect(await screen.findByText('No domains added yet')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Your First Domain' }));
    expect(screen.getByTestId('add-domain-form')).toBeInTheDocument();
    expect(screen.getByLabelText('Domain name')).toHaveFocus();
  });

  it('on a 401 says the user is logged out and asks for the session again (the login screen appears)', async () => {
    let userCalls = 0;
    stubDomains([], {
      'GET /api/user': () => {
        userCalls += 1;
        return userCalls === 1
          ? jsonResponse(makeUser())
          : errorResponse(401, 'unauthorized', 'Please sign in to continue');
      },
      'GET /api/domains': () => errorResponse(401, 'unauthorized', 'Please sign in to continue'),
    });
    renderApp('/domains');
    expect(await screen.findByText('Unauthorized')).toBeInTheDocument();
    expect(screen.getByText('You are logged out. Logging in again...')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('domains-page')).not.toBeInTheDocument());
    expect(userCalls).toBeGreaterThanOrEqual(2);
  });
});

describe('Domains: timeline', () => {
  it("each card's menu opens the domain's timeline", async () => {
    stubDomains([makeDomain(), makeDomain({ id: 2, domain: 'news.example.org' })], {
      'GET /api/domains/2/timeline': () =>
        jsonResponse({
          domain: { id: 2, name: 'news.example.org' },
          from: '2025-02-04T12:00:00.000Z',
          to: '2025-03-06T12:00:00.000Z',
          series: [],
          events: [],
        }),
      'GET /api/domains/2/diagnosis': () => jsonResponse({ drops: [] }),
    });
    const view = await openPage();
    const user = userEvent.setup();
    await user.click(
      within(await card('news.example.org')).getByRole('button', { name: 'Actions for news.example.org' }),
    );
    expect(await screen.findByRole('menuitem', { name: 'Compliance' })).toHaveAttribute(
      'href',
      '/domains/2/compliance',
    );
    const item = await screen.findByRole('menuitem', { name: 'Timeline' });
    expect(item).toHaveAttribute('href', '/domains/2/timeline');
    await user.click(item);
    expect(await screen.findByRole('heading', { level: 1, name: 'Deliverability Timeline' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/domains/2/timeline');
  });
});

describe('Domains: add form', () => {
  it('opens and closes; the button is disabled while empty; cancelling clears the input', async () => {
    stubDomains([makeDomain()]);
    await openPage();
    await card('example.com');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    const form = within(screen.getByTestId('add-domain-form'));
    const submit = form.getByRole('button', { name: 'Add Domain' });
    expect(submit).toBeDisabled();
    await user.type(form.getByLabelText('Domain name'), '   ');
    expect(submit).toBeDisabled();
    await user.type(form.getByLabelText('Domain name'), 'mail.example.net');
    expect(submit).toBeEnabled();
    await user.click(form.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('add-domain-form')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    expect(screen.getByLabelText('Domain name')).toHaveValue('');
  });

  it('opens with the cursor in the field; Escape from the field or a button in the form closes it, Escape elsewhere does not', async () => {
    stubDomains([makeDomain()]);
    await openPage();
    await card('example.com');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    expect(screen.getByLabelText('Domain name')).toHaveFocus();
    await user.type(screen.getByLabelText('Domain name'), 'mail.example.net');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('add-domain-form')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    expect(screen.getByLabelText('Domain name')).toHaveValue('');
    await user.tab();
    expect(within(screen.getByTestId('add-domain-form')).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('add-domain-form')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    within(await card('example.com'))
      .getByRole('button', { name: 'Show DMARC reports' })
      .focus();
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('add-domain-form')).toBeInTheDocument();
  });

  it('sends the name trimmed and lower-cased, toasts "Domain Added" and refreshes the list', async () => {
    const added = makeDomain({ id: 7, domain: 'mail.example.net', status: 'pending', isVerified: false });
    let list: Domain[] = [];
    const fetchMock = stubDomains(() => list, {
      'POST /api/domains': () => {
        list = [added];
        return jsonResponse(added, 201);
      },
    });
    await openPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Your First Domain' }));
    await user.type(screen.getByLabelText('Domain name'), '  Mail.EXAMPLE.net  ');
    await user.click(within(screen.getByTestId('add-domain-form')).getByRole('button', { name: 'Add Domain' }));
    expect(await screen.findByText('Domain Added')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/domains')).toEqual({ domain: 'mail.example.net' });
    expect(await card('mail.example.net')).toBeInTheDocument();
    expect(screen.queryByTestId('add-domain-form')).not.toBeInTheDocument();
  });

  it('refuses a name the server would refuse, in the contract schema’s words under the field, before any request', async () => {
    const fetchMock = stubDomains([makeDomain()]);
    await openPage();
    await card('example.com');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    const field = screen.getByLabelText('Domain name');
    for (const [name, message] of [
      ['exa mple.com', 'Enter a valid domain name such as example.com'],
      ['192.0.2.1', 'Enter a domain name, not an IP address'],
      ['co.uk', 'Enter a domain under a public suffix, such as example.com'],
      ['intranet.invalidtld', 'Enter a domain under a public suffix, such as example.com'],
    ] as const) {
      await user.clear(field);
      await user.type(field, `${name}{Enter}`);
      expect(await screen.findByText(message), name).toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('toasts "Failed to add domain" with the server message and keeps the input', async () => {
    stubDomains([makeDomain()], {
      'POST /api/domains': () => errorResponse(409, 'conflict', 'You already added this domain'),
    });
    await openPage();
    await card('example.com');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add Domain' }));
    await user.type(screen.getByLabelText('Domain name'), 'example.com{Enter}');
    expect(await screen.findByText('Failed to add domain')).toBeInTheDocument();
    expect(screen.getAllByText('You already added this domain').length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Domain name')).toHaveValue('example.com');
    expect(screen.getByLabelText('Domain name')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Domains: delete and verify', () => {
  it('asks for confirmation, deletes, toasts "Domain Deleted" and removes the card', async () => {
    let list = [makeDomain(), makeDomain({ id: 2, domain: 'other.example.org' })];
    const fetchMock = stubDomains(() => list, {
      'DELETE /api/domains/1': () => {
        list = list.filter((d) => d.id !== 1);
        return new Response(null, { status: 204 });
      },
    });
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Delete Domain');
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/Are you sure you want to delete example.com\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Domain Deleted')).toBeInTheDocument();
    expect(screen.getByText('example.com was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('domain-card')).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('cancelling the confirmation deletes nothing', async () => {
    const fetchMock = stubDomains([makeDomain()]);
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Delete Domain');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(await card('example.com')).toBeInTheDocument();
  });

  it('toasts "Delete Failed" when the server refuses', async () => {
    stubDomains([makeDomain()], {
      'DELETE /api/domains/1': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Delete Domain');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not delete domain. Please try again.')).toBeInTheDocument();
  });

  it('Verify DNS toasts "DNS Verification Complete" for a healthy result and reloads the list with the new status', async () => {
    let list = [makeDomain({ status: 'pending', isVerified: false })];
    let listCalls = 0;
    stubDomains(
      () => {
        listCalls += 1;
        return list;
      },
      {
        'POST /api/domains/1/verify': () => {
          list = [makeDomain({ status: 'healthy', isVerified: true })];
          return jsonResponse(makeDetail({ status: 'healthy', isVerified: true }));
        },
      },
    );
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('example.com'));
    expect(element.getByTestId('domain-status')).toHaveTextContent('Pending');
    await user.click(element.getByRole('button', { name: 'Verify DNS' }));
    expect(await screen.findByText('DNS Verification Complete')).toBeInTheDocument();
    expect(screen.getByText('example.com: Verified')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(screen.getByTestId('domain-card')).getByTestId('domain-status')).toHaveTextContent('Verified'),
    );
    expect(listCalls).toBeGreaterThanOrEqual(2);
  });

  it('toasts "Verification Failed" with the server’s sentence when the check cannot run', async () => {
    stubDomains([makeDomain()], {
      'POST /api/domains/1/verify': () => errorResponse(502, 'unavailable', 'DNS timeout'),
    });
    await openPage();
    const user = userEvent.setup();
    await user.click(within(await card('example.com')).getByRole('button', { name: 'Verify DNS' }));
    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByText('DNS timeout')).toBeInTheDocument();
  });
});

describe('Domains: DNS setup instructions', () => {
  it('shows the ownership record, SPF, DKIM and DMARC records with copy buttons for unverified domains', async () => {
    stubDomains([
      makeDomain({ status: 'pending', isVerified: false }),
      makeDomain({ id: 2, domain: 'done.example.org' }),
    ]);
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('example.com'));
    const ownership = within(element.getByRole('group', { name: 'Ownership verification (TXT)' }));
    expect(ownership.getByText('_inboxpulse.example.com')).toBeInTheDocument();
    expect(ownership.getByText('inboxpulse-verification=abc123')).toBeInTheDocument();
    await user.click(ownership.getByRole('button', { name: 'Copy record value' }));
    expect(await navigator.clipboard.readText()).toBe('inboxpulse-verification=abc123');
    expect(ownership.getByText('Copied')).toBeInTheDocument();
    await user.click(ownership.getByRole('button', { name: 'Copy record name' }));
    expect(await navigator.clipboard.readText()).toBe('_inboxpulse.example.com');

    const spf = within(element.getByRole('group', { name: 'SPF record (TXT)' }));
    expect(spf.getByText('v=spf1 include:_spf.google.com ~all')).toBeInTheDocument();
    const dkim = within(element.getByRole('group', { name: 'DKIM record (TXT)' }));
    expect(dkim.getByText('default._domainkey')).toBeInTheDocument();
    expect(element.getByText(/DNS propagation takes 5-15 minutes/)).toBeInTheDocument();

    // A verified domain needs no setup instructions.
    expect(within(await card('done.example.org')).queryByTestId('dns-setup')).not.toBeInTheDocument();
  });

  it('suggests DMARC p=quarantine at _dmarc with the report address the server gives in rua=, and follows the policy select', async () => {
    stubDomains([makeDomain({ status: 'pending', isVerified: false })], {
      'GET /api/dmarc/intake': () => jsonResponse({ reportAddress: 'dmarc@in.inboxpulse.test', mailboxPolled: false }),
    });
    await openPage();
    const user = userEvent.setup();
    const dmarc = within(within(await card('example.com')).getByRole('group', { name: 'DMARC record (TXT)' }));
    expect(dmarc.getByText('_dmarc')).toBeInTheDocument();
    const select = dmarc.getByLabelText('DMARC policy') as HTMLSelectElement;
    expect(select.value).toBe('quarantine');
    expect([...select.options].map((o) => o.value)).toEqual(['none', 'quarantine', 'reject']);
    // One report address everywhere: the one the server routes (dmarc@INBOUND_DOMAIN), never dmarc@<the domain>.
    expect(await dmarc.findByText('v=DMARC1; p=quarantine; rua=mailto:dmarc@in.inboxpulse.test')).toBeInTheDocument();
    expect(
      dmarc.getByText(
        /rua= sends their daily aggregate reports to InboxPulse: .* add mailto:dmarc@in\.inboxpulse\.test after a comma\./,
      ),
    ).toBeInTheDocument();
    await user.selectOptions(select, 'reject');
    expect(dmarc.getByText('v=DMARC1; p=reject; rua=mailto:dmarc@in.inboxpulse.test')).toBeInTheDocument();
    await user.click(dmarc.getByRole('button', { name: 'Copy record value' }));
    expect(await navigator.clipboard.readText()).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@in.inboxpulse.test');
  });

  it('leaves rua= out rather than guessing an address when the report address cannot be loaded', async () => {
    stubDomains([makeDomain({ status: 'pending', isVerified: false })], {
      'GET /api/dmarc/intake': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    await openPage();
    const dmarc = within(within(await card('example.com')).getByRole('group', { name: 'DMARC record (TXT)' }));
    expect(await dmarc.findByRole('alert')).toHaveTextContent('Could not load the InboxPulse report address for rua=');
    expect(dmarc.getByText('v=DMARC1; p=quarantine')).toBeInTheDocument();
  });
});

describe('Domains: details panel', () => {
  it('loads the checks and shows statuses, records, findings with fixes and the SPF include tree', async () => {
    stubDomains([makeDomain()], { 'GET /api/domains/1': () => jsonResponse(makeDetail()) });
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('example.com'));
    const toggle = element.getByRole('button', { name: 'Show DNS check details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(element.getByRole('button', { name: 'Hide DNS check details' })).toHaveAttribute('aria-expanded', 'true');
    const details = within(element.getByTestId('domain-details'));
    const spf = within(await details.findByTestId('check-spf'));
    expect(spf.getByTestId('check-status')).toHaveTextContent('Invalid');
    expect(spf.getByText('11 of 10 DNS lookups')).toBeInTheDocument();
    expect(spf.getByText('1 of 2 void lookups')).toBeInTheDocument();
    expect(spf.getByText(/needs 11 DNS lookups/)).toBeInTheDocument();
    expect(spf.getByText(/Remove includes you no longer send through/)).toBeInTheDocument();

    const tree = within(spf.getByTestId('spf-tree'));
    expect(tree.getByText('_spf.google.com')).toBeInTheDocument();
    expect(tree.getByText('_netblocks.google.com')).toBeInTheDocument();
    expect(tree.getByText('No SPF record found at spf.protection.outlook.com')).toBeInTheDocument();
    // Nested: the Google netblocks sit inside the _spf.google.com entry.
    const googleItem = tree.getByText('_spf.google.com').closest('li')!;
    expect(within(googleItem).getByText('_netblocks.google.com')).toBeInTheDocument();

    const dkim = within(details.getByTestId('check-dkim'));
    const selectors = dkim.getAllByTestId('dkim-selector');
    expect(selectors.map((s) => s.getAttribute('data-selector'))).toEqual(['google', 's1']);
    expect(within(selectors[0]).getByText('Key: RSA, 2048 bits')).toBeInTheDocument();
    expect(within(selectors[1]).getByTestId('check-status')).toHaveTextContent('Missing');
    expect(within(selectors[1]).getByText(/Publish the key your provider gives you/)).toBeInTheDocument();

    const dmarc = within(details.getByTestId('check-dmarc'));
    expect(dmarc.getByText('_dmarc.example.com')).toBeInTheDocument();
    expect(dmarc.getByText('mailto:reports@dmarc.example.net')).toBeInTheDocument();
    expect(dmarc.getByText(/not authorized to receive reports/)).toBeInTheDocument();
    expect(dmarc.getByText(/Move to p=quarantine/)).toBeInTheDocument();

    expect(within(details.getByTestId('check-mx')).getByText('aspmx.l.google.com')).toBeInTheDocument();
    expect(within(details.getByTestId('check-mta-sts')).getByTestId('check-status')).toHaveTextContent('Missing');
    expect(within(details.getByTestId('check-tls-rpt')).getByText('No TLS-RPT record.')).toBeInTheDocument();
    expect(details.getByTestId('check-bimi')).toBeInTheDocument();
  });

  it('says "Not checked yet" before the first check', async () => {
    stubDomains([makeDomain({ status: 'pending' })], {
      'GET /api/domains/1': () => jsonResponse(makeDetail({ status: 'pending', checks: null })),
    });
    await openPage();
    const user = userEvent.setup();
    await user.click(within(await card('example.com')).getByRole('button', { name: 'Show DNS check details' }));
    expect(await within(screen.getByTestId('domain-details')).findByText('Not checked yet')).toBeInTheDocument();
  });

  it('shows the fresh results after Verify DNS without asking again', async () => {
    let detailCalls = 0;
    stubDomains([makeDomain()], {
      'GET /api/domains/1': () => {
        detailCalls += 1;
        return jsonResponse(makeDetail({ checks: null }));
      },
      'POST /api/domains/1/verify': () => jsonResponse(makeDetail({ checks: makeChecks() })),
    });
    await openPage();
    const user = userEvent.setup();
    const element = within(await card('example.com'));
    await user.click(element.getByRole('button', { name: 'Show DNS check details' }));
    expect(await element.findByText('Not checked yet')).toBeInTheDocument();
    await user.click(element.getByRole('button', { name: 'Verify DNS' }));
    expect(await element.findByTestId('spf-tree')).toBeInTheDocument();
    expect(detailCalls).toBe(1);
  });
});

describe('Domains: edit dialog', () => {
  it('edits the DKIM selectors (shown as chips) and notes, and sends the selectors as an array', async () => {
    const domain = makeDomain({ dkimSelectors: ['google'] });
    const fetchMock = stubDomains([domain], {
      'PATCH /api/domains/1': (init) => {
        const body = JSON.parse(String(init?.body)) as { dkimSelectors: string[]; notes: string | null };
        return jsonResponse({ ...domain, ...body });
      },
    });
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Edit Domain');
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Domain' }));
    const selectors = dialog.getByLabelText('DKIM selectors');
    expect(selectors).toHaveValue('google');
    await user.clear(selectors);
    await user.type(selectors, 'Google, s1{Enter}s2, s1');
    expect(dialog.getAllByTestId('selector-chip').map((chip) => chip.textContent)).toEqual(['google', 's1', 's2']);
    await user.click(dialog.getByRole('button', { name: 'Remove selector s2' }));
    expect(dialog.getAllByTestId('selector-chip').map((chip) => chip.textContent)).toEqual(['google', 's1']);
    await user.type(dialog.getByLabelText('Notes'), '  Sent through Google Workspace  ');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Domain Updated')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH /api/domains/1')).toEqual({
      dkimSelectors: ['google', 's1'],
      notes: 'Sent through Google Workspace',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Domain' })).not.toBeInTheDocument());
  });

  it("shows the server's validation message and stays open", async () => {
    stubDomains([makeDomain()], {
      'PATCH /api/domains/1': () => errorResponse(400, 'validation_error', 'At most 20 DKIM selectors'),
    });
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Edit Domain');
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Domain' }));
    await user.type(dialog.getByLabelText('DKIM selectors'), 's1');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('At most 20 DKIM selectors');
    expect(screen.getByRole('dialog', { name: 'Edit Domain' })).toBeInTheDocument();
  });

  it('can be used with the keyboard alone and gives focus back to the actions menu when closed', async () => {
    stubDomains([makeDomain()]);
    await openPage();
    const user = userEvent.setup();
    const actions = within(await card('example.com')).getByRole('button', { name: 'Actions for example.com' });
    actions.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Edit Domain' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Domain' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Domain' })).not.toBeInTheDocument());
    await waitFor(() => expect(actions).toHaveFocus());
  });

  it('explains a malformed selector without calling the server', async () => {
    const fetchMock = stubDomains([makeDomain()]);
    await openPage();
    const user = userEvent.setup();
    await openMenuItem(user, 'example.com', 'Edit Domain');
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Domain' }));
    await user.type(dialog.getByLabelText('DKIM selectors'), 'bad!selector');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'A DKIM selector is letters, digits, dots, dashes or underscores',
    );
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });
});
