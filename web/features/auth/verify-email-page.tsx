import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '@contracts/auth';
import { QueryState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { verifyEmailQueryOptions } from './api';
import { AuthLayout } from './components/auth-layout';
import { ResendVerificationForm } from './components/resend-verification-form';
import { USER_QUERY_KEY } from '../../lib/session';

/** /verify-email?token=... in variant B: loading, success, already_verified, error (part 1, 2.6). */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const verify = useQuery({ ...verifyEmailQueryOptions(token), enabled: token !== '' });

  // A signed-in user's emailVerified flag just changed.
  useEffect(() => {
    if (verify.isSuccess) void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
  }, [verify.isSuccess, queryClient]);

  if (!token) {
    return (
      <VerifyFailed
        title="Verification Failed"
        description="Invalid verification link. Please check your email and try again."
      />
    );
  }
  return (
    <QueryState
      query={verify}
      loading={
        <AuthLayout title="Verifying your email" description="Please wait while we confirm your email address...">
          <div className="flex justify-center">
            <Spinner label="Verifying your email" />
          </div>
        </AuthLayout>
      }
      failed={(error) =>
        error instanceof ApiError ? (
          <VerifyFailed
            title="Verification Failed"
            description={error.serverMessage || 'Failed to verify email address'}
          />
        ) : (
          <VerifyFailed
            title="Verification Error"
            description="Something went wrong while verifying your email. Please try again."
          />
        )
      }
    >
      {(verified) => <Verified message={verified.message} email={verified.user.email} />}
    </QueryState>
  );
}

function Verified({ message, email }: { message: string; email: string }) {
  const alreadyVerified = message === AUTH_MESSAGES.emailAlreadyVerified;
  return (
    <AuthLayout
      icon={<CircleCheck className="size-12 text-success" aria-hidden="true" />}
      title={alreadyVerified ? 'Email Already Verified' : 'Email Verified!'}
      description={message}
    >
      <p className="mb-4 text-center text-sm text-muted-foreground">
        <span className="font-medium text-foreground">{email}</span>{' '}
        {alreadyVerified ? 'was confirmed earlier.' : 'is now confirmed.'} Your account is ready to use.
      </p>
      <div className="flex flex-col gap-3">
        <Button asChild className="w-full">
          <Link to={PATHS.dashboard}>Go to Dashboard</Link>
        </Button>
        <Button asChild variant="outline" className="w-full">
          <Link to={PATHS.home}>Return to Home</Link>
        </Button>
      </div>
    </AuthLayout>
  );
}

function VerifyFailed({ title, description }: { title: string; description: string }) {
  return (
    <AuthLayout
      icon={<CircleX className="size-12 text-destructive" aria-hidden="true" />}
      title={title}
      description={description}
    >
      <div className="space-y-4">
        <p className="text-sm text-muted-foreground">
          Enter your email address and we will send you a new verification link.
        </p>
        <ResendVerificationForm />
        <Button asChild variant="outline" className="w-full">
          <Link to={PATHS.login}>Back to Login</Link>
        </Button>
      </div>
    </AuthLayout>
  );
}
