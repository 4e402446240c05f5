import MailComposer from 'nodemailer/lib/mail-composer';
import type { SimulateEmailBody } from '../../contracts/inbox-tests';

/**
 * The message a simulation analyses: what a plain mail client would build from the fields, with Date
 * and Message-ID, so the content checks judge the user's content rather than a missing header.
 */
export function composeSimulatedMessage(body: SimulateEmailBody, inboundDomain: string): Promise<Buffer> {
  const composer = new MailComposer({
    from: body.fromEmail,
    to: `simulation@${inboundDomain}`,
    subject: body.subject,
    text: body.content,
    ...(body.htmlContent ? { html: body.htmlContent } : {}),
    date: new Date(),
    messageId: `<simulation-${Date.now()}@${body.fromEmail.split('@')[1] ?? inboundDomain}>`,
    // CRLF line ends, as an SMTP client would send them: the analysis counts bare LFs as a defect.
    newline: 'windows',
  });
  return composer.compile().build();
}
