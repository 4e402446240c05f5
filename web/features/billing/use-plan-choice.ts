import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BILLING_ERRORS, BILLING_MESSAGES, type BillingPriceId, type Subscription } from '@contracts/billing';
import { toast } from '../../components/ui/use-toast';
import { serverMessageOr } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { useChangePlanMutation, useDowngradeMutation, useUpgradeMutation } from './api';
import { loadPage } from './load-page';
import { decidePlanChoice, type CardChoice } from './plan-choice';
import { SALES_MAILTO } from './pricing-plans';

/** Where an upgrade that needs a payment goes (part 2, section 2: /checkout?plan=&client_secret=&subscription_id=). */
export function checkoutPath(answer: { planId: BillingPriceId; clientSecret: string; subscriptionId: string }): string {
  const query = new URLSearchParams({
    plan: answer.planId,
    client_secret: answer.clientSecret,
    subscription_id: answer.subscriptionId,
  });
  return `${PATHS.checkout}?${query.toString()}`;
}

const failed = (description: string) => toast({ title: 'Error', description, variant: 'destructive' });

/**
 * Carries out the plan choice of part 2, section 4 (plan-choice.ts decides). A downgrade asks first:
 * the Free plan keeps less data, and what is older than it keeps is deleted.
 */
export function usePlanChoice(subscription: Subscription | null, couponCode: string | null) {
  const navigate = useNavigate();
  const upgrade = useUpgradeMutation();
  const change = useChangePlanMutation();
  const downgrade = useDowngradeMutation();
  const [pendingChoice, setPendingChoice] = useState<CardChoice | null>(null);
  const [confirmingDowngrade, setConfirmingDowngrade] = useState(false);

  const choose = (choice: CardChoice) => {
    const outcome = decidePlanChoice(choice, subscription);
    switch (outcome.action) {
      case 'login':
        void navigate(PATHS.login);
        return;
      case 'contact-sales':
        window.location.href = SALES_MAILTO;
        return;
      case 'toast':
        toast({ title: outcome.message });
        return;
      case 'downgrade':
        setConfirmingDowngrade(true);
        return;
      case 'upgrade':
        setPendingChoice(choice);
        upgrade.mutate(outcome.planId, {
          // Item 7: a client secret goes to checkout (loaded from the server, for its security
          // policy); without one the change is done.
          onSuccess: (answer) => {
            if ('clientSecret' in answer) loadPage(checkoutPath(answer));
            else toast({ title: 'Success', description: answer.message });
          },
          onError: (error) => failed(serverMessageOr(error, BILLING_ERRORS.upgrade)),
          onSettled: () => setPendingChoice(null),
        });
        return;
      case 'change':
        setPendingChoice(choice);
        change.mutate(
          { newPlanId: outcome.newPlanId, couponCode },
          {
            onSuccess: () => toast({ title: 'Success', description: BILLING_MESSAGES.changed }),
            onError: (error) => failed(serverMessageOr(error, BILLING_ERRORS.change)),
            onSettled: () => setPendingChoice(null),
          },
        );
    }
  };

  const confirmDowngrade = () =>
    downgrade.mutate(undefined, {
      onSuccess: (message) => toast({ title: 'Success', description: message }),
      onError: (error) => failed(serverMessageOr(error, BILLING_ERRORS.downgrade)),
      onSettled: () => setConfirmingDowngrade(false),
    });

  return {
    choose,
    /** The choice whose call is under way (its button shows it); every choice waits for it. */
    pendingChoice: upgrade.isPending || change.isPending ? pendingChoice : null,
    busy: upgrade.isPending || change.isPending || downgrade.isPending,
    downgradeDialog: {
      open: confirmingDowngrade,
      pending: downgrade.isPending,
      onOpenChange: (open: boolean) => !downgrade.isPending && setConfirmingDowngrade(open),
      onConfirm: confirmDowngrade,
    },
  };
}
