/*
 * Complaint feedback loops (server/feedback-loops/, ADR 054): the address loops are given on the product's inbound
 * SMTP listener. Sub-addressing (fbl+yahoo@) reaches the same mailbox.
 */
export const FBL_LOCAL_PART = 'fbl';
export const feedbackLoopAddress = (inboundDomain: string) => `${FBL_LOCAL_PART}@${inboundDomain}`;
