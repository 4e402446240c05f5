import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { TimelineEvent } from '@contracts/timeline';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { useDeleteNoteMutation } from '../api';
import { EVENT_KINDS, noteIdOf, SEVERITY_TEXT } from '../event-kinds';
import { pointTime } from '../point-time';
import { EvidenceLink } from './evidence-link';

function EventItem({ event, onDeleteNote }: { event: TimelineEvent; onDeleteNote?: (event: TimelineEvent) => void }) {
  const kind = EVENT_KINDS[event.kind];
  const Icon = kind.icon;
  return (
    <li data-testid="timeline-event" data-kind={event.kind} data-event-id={event.id} className="flex gap-3 py-3">
      <Icon className={cn('mt-0.5 size-5 shrink-0', SEVERITY_TEXT[event.severity])} aria-hidden="true" />
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-col gap-x-3 gap-y-0.5 sm:flex-row sm:items-baseline sm:justify-between">
          <p className="min-w-0 font-medium wrap-anywhere">
            <span className="sr-only">{kind.label}: </span>
            {event.title}
          </p>
          <time dateTime={event.at} className="shrink-0 text-xs text-muted-foreground">
            {pointTime(event.at)}
          </time>
        </div>
        <p className="text-xs text-muted-foreground" aria-hidden="true">
          {kind.label}
        </p>
        {/* A DNS change's detail holds whole records: it wraps anywhere rather than widening the page. */}
        {event.detail && (
          <p className="whitespace-pre-wrap text-sm text-muted-foreground wrap-anywhere">{event.detail}</p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <EvidenceLink to={event.link} about={event.title} />
          {onDeleteNote && event.kind === 'note' && noteIdOf(event) !== null && (
            <Button
              variant="ghost"
              size="sm"
              className="h-auto px-1 py-0.5 text-muted-foreground hover:text-destructive"
              onClick={() => onDeleteNote(event)}
              aria-label={`Delete note ${event.title}`}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

/** Events newest first; notes get Delete when `onDeleteNote` is given (a domain's timeline has notes, an IP's none). */
export function EventItems({
  events,
  onDeleteNote,
}: {
  events: readonly TimelineEvent[];
  onDeleteNote?: (event: TimelineEvent) => void;
}) {
  const newestFirst = [...events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return (
    <ol aria-label="Events, newest first" className="divide-y" data-testid="timeline-events">
      {newestFirst.map((event) => (
        <EventItem key={event.id} event={event} onDeleteNote={onDeleteNote} />
      ))}
    </ol>
  );
}

/** Every event of a domain's period, newest first, under the chart that shows them as dots; its notes can be deleted. */
export function EventList({ domainId, events }: { domainId: number; events: readonly TimelineEvent[] }) {
  const [deleting, setDeleting] = useState<TimelineEvent | null>(null);
  const deleteNote = useDeleteNoteMutation(domainId);

  function confirmDelete() {
    const noteId = deleting && noteIdOf(deleting);
    if (!noteId) return;
    deleteNote.mutate(noteId, {
      onSuccess: () => {
        toast({ title: 'Note deleted' });
        setDeleting(null);
      },
      onError: (failure) => {
        toast({
          title: 'Error',
          description: serverMessageOr(failure, 'Could not delete the note. Please try again.'),
          variant: 'destructive',
        });
        setDeleting(null);
      },
    });
  }

  return (
    <>
      <EventItems events={events} onDeleteNote={setDeleting} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this note?"
        description={deleting ? `“${deleting.title}” will be removed from the timeline.` : ''}
        pending={deleteNote.isPending}
        onConfirm={confirmDelete}
        testId="delete-note-dialog"
      />
    </>
  );
}
