import { Spinner } from '../components/ui/spinner';

/** Whole-screen wait: shown while we learn whether someone is signed in, or a page's code loads. */
export function PageSpinner() {
  return (
    <div data-testid="page-spinner" className="flex min-h-screen items-center justify-center">
      <Spinner className="size-10" />
    </div>
  );
}
