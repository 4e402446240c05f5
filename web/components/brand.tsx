import { Link } from 'react-router';
import { PATHS } from '../lib/paths';
import { cn } from '../lib/utils';

/** The product mark and name; links home so every screen has a way back. */
export function Brand({ className, tone = 'default' }: { className?: string; tone?: 'default' | 'inverted' }) {
  return (
    <Link
      to={PATHS.home}
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-lg font-bold',
        tone === 'inverted' ? 'text-white' : 'text-foreground',
        className,
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="7" fill="#2563eb" />
        <path d="M7 10h18v12H7z" fill="none" stroke="#fff" strokeWidth="2" strokeLinejoin="round" />
        <path d="M7 11l9 6 9-6" fill="none" stroke="#fff" strokeWidth="2" strokeLinejoin="round" />
      </svg>
      InboxPulse
    </Link>
  );
}
