import { Fragment } from 'react';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';
import type { ShellMeta } from './shell-meta';

/** 'Dashboard' root link plus the page's trail; the last item is the current page. */
export function Breadcrumbs({ trail = [] }: { trail?: ShellMeta['breadcrumbs'] }) {
  const rootIsCurrent = trail.length === 0;
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-muted-foreground">
        <li>
          <Link
            to={PATHS.home}
            aria-current={rootIsCurrent ? 'page' : undefined}
            className="rounded hover:text-foreground"
          >
            Dashboard
          </Link>
        </li>
        {trail.map((item, index) => {
          const isLast = index === trail.length - 1;
          return (
            <Fragment key={`${item.label}-${index}`}>
              <li aria-hidden="true">
                <ChevronRight className="size-4" />
              </li>
              <li>
                {item.to && !isLast ? (
                  <Link to={item.to} className="rounded hover:text-foreground">
                    {item.label}
                  </Link>
                ) : (
                  <span
                    aria-current={isLast ? 'page' : undefined}
                    className={isLast ? 'font-medium text-foreground' : undefined}
                  >
                    {item.label}
                  </span>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
