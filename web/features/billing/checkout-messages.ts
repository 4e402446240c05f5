/** The checkout's words (part 2, sections 5 and 8), in one place for the page and its tests. */
export const CHECKOUT_MESSAGES = {
  notReady: 'Payment system not ready. Please refresh the page and try again.',
  network: 'Connection issue during payment. Please check your internet and try again.',
  validationTitle: 'Form Validation Error',
  validationFallback: 'Please complete all required fields',
  unableToCreate: 'Unable to create subscription. Please try again.',
  failedToCreate: 'Failed to create subscription',
  unavailable: 'Payment system unavailable. Please try again later.',
  failedTitle: 'Payment Failed',
} as const;

/** Part 2, section 8, "Card codes": these four in the spec's words, any other in the provider's own. */
export const CARD_ERROR_MESSAGES: Record<string, string> = {
  incomplete_number: 'Please enter a complete card number.',
  incomplete_cvc: 'Please enter a complete CVC code.',
  incomplete_expiry: 'Please enter a complete expiration date.',
  card_declined: 'Your card was declined. Please try a different payment method.',
};

/** What Stripe.js reports when a payment fails: a code for card errors, a type for the rest. */
export interface PaymentError {
  type?: string;
  code?: string;
  message?: string;
}

/** The sentence a failed payment shows: the card code's, the connection's, or the provider's message. */
export function paymentErrorMessage(error: PaymentError): string {
  if (error.type === 'api_connection_error') return CHECKOUT_MESSAGES.network;
  if (error.code && CARD_ERROR_MESSAGES[error.code]) return CARD_ERROR_MESSAGES[error.code]!;
  return error.message || 'Your payment could not be completed. Please try again.';
}
