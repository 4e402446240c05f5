import MailComposer from 'nodemailer/lib/mail-composer';
import type { InboxTestReport, SimulateEmailBody } from '@contracts/inbox-tests';
import { AppError } from '../platform/errors';
import { AnalysisStoppedError } from '../engine/message-analysis/analysis-pool';
import type { MessageAnalyser } from '../platform/message-analyser';

/** The report of a message that was not sent: composed from the fields and analysed like a received one, without an envelope. */
export async function analyseSimulatedMessage(
  analyser: MessageAnalyser,
  body: SimulateEmailBody,
  inboundDomain: string,
): Promise<InboxTestReport> {
  const raw = await composeSimulatedMessage(body, inboundDomain);
  try {
    return await analyser.analyse(raw, null);
  } catch (err) {
    if (err instanceof AnalysisStoppedError) throw new AppError('validation_error', err.message);
    throw err;
  }
}

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
