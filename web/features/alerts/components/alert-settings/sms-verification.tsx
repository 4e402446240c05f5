import { useState } from 'react';
import { CircleCheck } from 'lucide-react';
import { SMS_CODE_MINUTES } from '@contracts/alert-settings';
import { Button } from '../../../../components/ui/button';
import { Input } from '../../../../components/ui/input';
import { ApiError } from '../../../../lib/api-client';
import { useSendSmsCodeMutation, useVerifySmsCodeMutation } from '../../api';

/**
 * The saved SMS number's proof: no alert is texted to a number until its owner types back the code texted to it.
 * Plain inputs and buttons, not a form: it sits inside the Alert Settings form, and Enter in the code field
 * verifies instead of saving the settings.
 */
export function SmsVerification({ number, verified }: { number: string; verified: boolean }) {
  const send = useSendSmsCodeMutation();
  const verify = useVerifySmsCodeMutation();
  const [code, setCode] = useState('');
  const failure = (error: unknown) => (error instanceof ApiError ? error.serverMessage : 'Something went wrong');

  if (verified) {
    return (
      <p className="flex items-center gap-2 text-sm text-success" data-testid="sms-verified">
        <CircleCheck className="size-4" aria-hidden="true" />
        {number} is verified: critical alerts are texted to it.
      </p>
    );
  }
  const submitCode = () => verify.mutate(code.trim());
  return (
    <div className="space-y-2 rounded-md border p-3 text-sm" data-testid="sms-verification">
      <p>
        {number} is not verified: no alert is texted to it until you enter the code we text it. The code is good for{' '}
        {SMS_CODE_MINUTES} minutes.
      </p>
      <Button type="button" variant="outline" size="sm" disabled={send.isPending} onClick={() => send.mutate()}>
        {send.isPending ? 'Texting...' : 'Text me a code'}
      </Button>
      {send.isSuccess && <p role="status">{send.data.message}</p>}
      {send.isError && <p role="alert">{failure(send.error)}</p>}
      <div className="flex items-end gap-2">
        <label className="space-y-1" htmlFor="sms-code">
          <span className="block font-medium">Code</span>
          <Input
            id="sms-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className="w-32"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              submitCode();
            }}
          />
        </label>
        <Button type="button" size="sm" disabled={verify.isPending || code.trim() === ''} onClick={submitCode}>
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
      </div>
      {verify.isError && <p role="alert">{failure(verify.error)}</p>}
    </div>
  );
}
