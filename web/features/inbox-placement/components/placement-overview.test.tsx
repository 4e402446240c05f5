import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { placementRates, type PlacementTotals } from '../placement';
import { PlacementOverview } from './placement-overview';

function show(counts: Partial<PlacementTotals>) {
  const totals: PlacementTotals = {
    seedsUsed: 20,
    inboxCount: 0,
    spamCount: 0,
    missingCount: 0,
    pendingCount: 0,
    ...counts,
  };
  return render(<PlacementOverview totals={totals} rates={placementRates(totals)} />);
}

const figure = (testId: string) => {
  const element = screen.getByTestId(testId);
  return [element.textContent, element.getAttribute('data-tone')];
};

describe('PlacementOverview', () => {
  it('colours the rates by value: 0% in the inbox is red and 0% in spam green', () => {
    show({ inboxCount: 0, spamCount: 0, missingCount: 20 });
    expect(figure('rate-inbox')).toEqual(['0%', 'bad']);
    expect(screen.getByTestId('rate-inbox')).toHaveClass('text-red-700');
    expect(figure('rate-spam')).toEqual(['0%', 'good']);
    expect(screen.getByTestId('rate-spam')).toHaveClass('text-green-700');
    expect(figure('rate-missing')).toEqual(['100%', 'none']);
  });

  it.each([
    // inbox, spam of 20 seeds -> inbox tone, spam tone
    [20, 0, 'good', 'good'], // 100% / 0%
    [18, 1, 'good', 'good'], // 90% / 5%
    [17, 3, 'warn', 'warn'], // 85% / 15%
    [14, 4, 'warn', 'bad'], // 70% / 20%
    [13, 7, 'bad', 'bad'], // 65% / 35%
  ])('%i inbox and %i spam of 20 seeds read %s and %s', (inboxCount, spamCount, inboxTone, spamTone) => {
    show({ inboxCount, spamCount, missingCount: 20 - inboxCount - spamCount });
    expect(screen.getByTestId('rate-inbox')).toHaveAttribute('data-tone', inboxTone);
    expect(screen.getByTestId('rate-spam')).toHaveAttribute('data-tone', spamTone);
  });

  it('counts seed mailboxes in words that fit the number', () => {
    show({ seedsUsed: 1, inboxCount: 1 });
    expect(screen.getByText('Total Tests').parentElement).toHaveTextContent(/1seed mailbox$/);
  });

  it('has no colour without seeds', () => {
    show({ seedsUsed: 0 });
    expect(figure('rate-inbox')).toEqual(['–', 'none']);
    expect(figure('rate-spam')).toEqual(['–', 'none']);
  });
});
