import { useId, useRef, type ChangeEvent } from 'react';
import { Upload } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useUploadDmarcReportMutation, useYourDomains } from '../api';
import { summariseUpload, type UploadSummary } from '../dmarc-text';

/** What receivers send: the XML itself, gzip (.xml.gz), zip, or the whole e-mail (.eml). */
const ACCEPTED = '.xml,.gz,.zip,.eml,application/xml,text/xml,application/gzip,application/zip,message/rfc822';

function UploadResult({ summary }: { summary: UploadSummary }) {
  return (
    <div className="space-y-1">
      <p>{summary.counts}</p>
      {summary.failures.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-4">
          {summary.failures.map((failure, index) => (
            <li key={`${failure.fileName}-${index}`}>
              <span className="font-medium">{failure.fileName}</span>: {failure.error}
            </li>
          ))}
          {summary.moreFailures > 0 && (
            <li>and {summary.moreFailures} more, listed under DMARC report imports below your domains</li>
          )}
        </ul>
      )}
      {summary.warnings.map((warning) => (
        <p key={`${warning.fileName}-${warning.warning}`}>
          <span className="font-medium">{warning.fileName}</span>: {warning.warning}
        </p>
      ))}
      {summary.otherDomains.length > 0 && <p>Also imported reports for {summary.otherDomains.join(', ')}.</p>}
      {summary.notAddedDomains.length > 0 && (
        <p>
          Also imported reports for {summary.notAddedDomains.join(', ')}, which{' '}
          {summary.notAddedDomains.length === 1 ? 'is not one' : 'are not'} of your domains: add{' '}
          {summary.notAddedDomains.length === 1 ? 'it' : 'them'} under DMARC report imports below your domains to see
          the reports.
        </p>
      )}
    </div>
  );
}

/** "Upload DMARC report": picks one file and posts it as it is; the answer is summarised in a toast. */
export function UploadReportButton({ domain }: { domain: string }) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const upload = useUploadDmarcReportMutation();
  const domains = useYourDomains();

  function send(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared at once so choosing the same file again (after fixing it) fires a change again.
    event.target.value = '';
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (result) => {
        const summary = summariseUpload(
          result,
          domain,
          domains.data?.map((d) => d.domain),
        );
        toast({
          title: summary.title,
          description: <UploadResult summary={summary} />,
          variant: summary.destructive ? 'destructive' : 'default',
        });
      },
      onError: (failure) =>
        toast({
          title: 'Upload failed',
          description: serverMessageOr(failure, `${file.name} could not be uploaded. Please try again.`),
          variant: 'destructive',
        }),
    });
  }

  return (
    <>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={ACCEPTED}
        aria-label="DMARC report file"
        className="sr-only"
        tabIndex={-1}
        onChange={send}
      />
      <Button
        variant="outline"
        size="sm"
        onClick={() => input.current?.click()}
        disabled={upload.isPending}
        aria-describedby={`${inputId}-hint`}
      >
        <Upload aria-hidden="true" />
        {upload.isPending ? 'Uploading...' : 'Upload DMARC report'}
      </Button>
      <span id={`${inputId}-hint`} className="sr-only">
        An aggregate report file: .xml, .xml.gz, .zip or .eml
      </span>
    </>
  );
}
