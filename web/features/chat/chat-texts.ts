import { COMPANY } from '@content/company';

/** The assistant's name, shown as the panel title. */
export const CHAT_TITLE = `${COMPANY.productName} Assistant`;

/**
 * Mirrors CHAT_MAX_LENGTH of contracts/chat.ts (part 1, section 5), which the server enforces.
 * Kept here so the chat chunk does not pull in zod with the contract; a test checks they agree.
 */
export const CHAT_MAX_LENGTH = 500;

export const CHAT_ENDPOINT = '/api/chatbot';

export const WELCOME_MESSAGE = `Hi! I'm the ${CHAT_TITLE}. Ask me about plans and pricing, features, or how to get set up.`;

/** Part 1, section 8: what the assistant says when the call fails. */
export const FAILURE_MESSAGE = `I'm experiencing technical difficulties. Please contact our support team at ${COMPANY.supportEmail} for immediate assistance.`;

/** Part 1, section 8: the generic friendly help line for an empty reply. */
export const EMPTY_REPLY_MESSAGE =
  "I'm here to help! You can ask me about InboxPulse plans and pricing, features like inbox placement testing and DMARC monitoring, or how to get started.";

export const SUGGESTED_QUESTIONS = [
  'What does the Free plan include?',
  'How do I run an inbox placement test?',
  'Which ESPs do you integrate with?',
];
