import { Link } from 'react-router';
import { BookOpen, Plug, Webhook, type LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { PATHS } from '../../../lib/paths';

interface Resource {
  to: string;
  label: string;
  about: string;
  icon: LucideIcon;
}

/** Part 2, section 2: the integration resources of Settings. */
const RESOURCES: Resource[] = [
  {
    to: PATHS.apiDocs,
    label: 'API Documentation',
    about: 'Every endpoint with request and response examples, authentication and rate limits.',
    icon: BookOpen,
  },
  {
    to: PATHS.integrations,
    label: 'Integrations',
    about: 'Connect your email service providers and mail transfer agents.',
    icon: Plug,
  },
  {
    to: PATHS.webhookDocs,
    label: 'Webhook Documentation',
    about: 'Events, payloads, signatures and retries.',
    icon: Webhook,
  },
];

/** The pages Settings leads to, each a link with what it holds. */
export function ResourceLinks() {
  return (
    <Card data-testid="resource-links" className="min-w-0">
      <CardHeader>
        <CardTitle>Resources</CardTitle>
        <CardDescription>Guides for building on the API and connecting your mail systems.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-3">
          {RESOURCES.map((resource) => (
            <li key={resource.to}>
              <ResourceItem resource={resource} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function ResourceItem({ resource }: { resource: Resource }) {
  const Icon = resource.icon;
  const body = (
    <>
      <span className="flex items-center gap-2 font-medium">
        <Icon className="size-4 shrink-0" aria-hidden="true" />
        {resource.label}
      </span>
      <span className="text-sm text-muted-foreground">{resource.about}</span>
    </>
  );
  const boxClass = 'flex h-full flex-col gap-1 rounded-md border p-3';
  return (
    <Link
      to={resource.to}
      className={`${boxClass} transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none`}
    >
      {body}
    </Link>
  );
}
