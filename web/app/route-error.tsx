import { useRouteError } from 'react-router';
import { Button } from '../components/ui/button';
import { useDocumentTitle } from './route-title';

/**
 * Shown when rendering a route throws, most often because a page's code could not be downloaded
 * (a new version was deployed, or the network dropped). Reloading fetches the current files.
 */
export function RouteError() {
  const error = useRouteError();
  useDocumentTitle('Something went wrong');
  console.error(error);
  return (
    <div role="alert" className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="max-w-md text-sm text-muted-foreground">
        This page could not be shown. Reloading usually fixes it; if it does not, please try again in a few minutes.
      </p>
      <Button onClick={() => window.location.reload()}>Reload page</Button>
    </div>
  );
}
