import { ChartLine, TrendingDown } from 'lucide-react';
import { Link } from 'react-router';
import { domainTimelinePath } from '@contracts/timeline';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import type { DropAnswer } from '../api';

/**
 * The answer to "why did my mail go to spam?" (issue 19): per domain with a drop detected in the last
 * 7 days, the newest drop's summary sentence and its timeline. Nothing at all when there is none.
 */
export function DropAnswersCard({ answers }: { answers: readonly DropAnswer[] }) {
  if (answers.length === 0) return null;
  return (
    <Card data-testid="dashboard-drop-answers" className="border-red-200">
      <CardHeader className="pb-3">
        <CardTitle className="flex items-center gap-2 text-lg">
          <TrendingDown className="size-5 text-red-600" aria-hidden="true" />
          {answers.length === 1 ? 'A drop in the last 7 days' : 'Drops in the last 7 days'}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          {answers.map(({ domain, drop }) => (
            <li
              key={domain.id}
              data-domain={domain.domain}
              className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-4"
            >
              <p className="min-w-0 text-sm wrap-anywhere">
                <span className="font-medium">{domain.domain}: </span>
                {drop.summary}
              </p>
              <Button asChild variant="outline" size="sm" className="shrink-0 self-start">
                <Link to={domainTimelinePath(domain.id)} aria-label={`View timeline of ${domain.domain}`}>
                  <ChartLine aria-hidden="true" />
                  View timeline
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
