import { ChartLine } from 'lucide-react';
import { Link } from 'react-router';
import type { Alert } from '@contracts/alerts';
import { Button } from '../../../components/ui/button';
import { timelineLinkOf } from '../timeline-link';

/** "View timeline" of an alert raised by a detected drop: where its causes are laid out. */
export function ViewTimelineLink({ alert }: { alert: Alert }) {
  const to = timelineLinkOf(alert);
  if (!to) return null;
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={to} aria-label={`View timeline: ${alert.title}`}>
        <ChartLine aria-hidden="true" />
        View timeline
      </Link>
    </Button>
  );
}
