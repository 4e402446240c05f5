import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Send, X } from 'lucide-react';
import { cn } from '../../lib/utils';
import { askAssistant } from './chat-api';
import { CHAT_MAX_LENGTH, CHAT_TITLE, FAILURE_MESSAGE, SUGGESTED_QUESTIONS, WELCOME_MESSAGE } from './chat-texts';
import { MessageText } from './message-text';

/** Part 1, section 3: a chat message lives only in the browser. */
interface ChatMessage {
  id: number;
  text: string;
  isBot: boolean;
  timestamp: Date;
}

interface ChatPanelProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/** The chat assistant's panel; loaded lazily by ChatWidget. */
export default function ChatPanel({ id, open, onClose }: ChatPanelProps) {
  const titleId = useId();
  const counterId = useId();
  const nextId = useRef(1);
  const [messages, setMessages] = useState<ChatMessage[]>(() => [
    { id: 0, text: WELCOME_MESSAGE, isBot: true, timestamp: new Date() },
  ]);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // Focus the input when the panel opens and again when a reply has arrived (it was disabled).
  useEffect(() => {
    if (open && !pending) inputRef.current?.focus();
  }, [open, pending]);

  // Keep the latest message in view.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, pending]);

  const add = (text: string, isBot: boolean) =>
    setMessages((list) => [...list, { id: nextId.current++, text, isBot, timestamp: new Date() }]);

  const send = async (raw: string) => {
    const message = raw.trim();
    // Part 1, sections 4 and 5: nothing is sent while a reply is pending or when the text is blank.
    if (pending || !message || message.length > CHAT_MAX_LENGTH) return;
    add(message, false);
    setInput('');
    setPending(true);
    try {
      add(await askAssistant(message), true);
    } catch {
      add(FAILURE_MESSAGE, true);
    } finally {
      setPending(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send(input);
  };

  // Enter sends; Shift+Enter keeps the textarea's newline. Enter while composing (IME) is not a send.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(input);
    }
  };

  const canSend = !pending && input.trim().length > 0;
  const hasAsked = messages.some((m) => !m.isBot);

  return (
    // A non-modal <dialog> (open, never showModal): the page stays usable. Escape anywhere in it closes it.
    <dialog
      id={id}
      data-testid="chat-panel"
      aria-labelledby={titleId}
      open={open}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
      className={cn(
        // The browser's dialog style pins it to the left edge (left-auto undoes that), and `flex`
        // would outweigh its display: none when closed (hence `hidden`).
        'fixed left-auto right-3 bottom-20 z-50 flex h-[min(34rem,calc(100dvh-6.5rem))] w-[calc(100vw-1.5rem)] flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-2xl sm:right-4 sm:w-96',
        !open && 'hidden',
      )}
    >
      <header className="flex items-center justify-between gap-2 bg-primary px-4 py-3 text-primary-foreground">
        <div>
          <h2 id={titleId} className="text-base font-semibold">
            {CHAT_TITLE}
          </h2>
          <p className="text-xs opacity-90">Pricing, features and setup</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close chat"
          className="rounded-md p-1.5 hover:bg-white/15 focus-visible:ring-2 focus-visible:ring-white focus-visible:outline-none"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </header>

      <div
        ref={listRef}
        role="log"
        aria-live="polite"
        aria-label="Conversation"
        className="flex-1 space-y-3 overflow-y-auto p-4"
      >
        {messages.map((message) => (
          <div
            key={message.id}
            data-testid="chat-message"
            data-from={message.isBot ? 'bot' : 'user'}
            className={cn('flex', message.isBot ? 'justify-start' : 'justify-end')}
          >
            <div
              className={cn(
                'max-w-[85%] rounded-2xl px-3 py-2 text-sm',
                message.isBot
                  ? 'rounded-bl-sm bg-muted text-foreground'
                  : 'rounded-br-sm bg-primary text-primary-foreground',
              )}
            >
              <span className="sr-only">{message.isBot ? 'Assistant: ' : 'You: '}</span>
              <MessageText text={message.text} />
            </div>
          </div>
        ))}
        {pending && (
          <div data-testid="chat-typing" role="status" className="flex justify-start">
            <span className="sr-only">The assistant is typing…</span>
            <span aria-hidden="true" className="inline-flex gap-1 rounded-2xl rounded-bl-sm bg-muted px-3 py-3">
              <span className="size-2 animate-bounce rounded-full bg-muted-foreground/60 [animation-delay:-0.3s]" />
              <span className="size-2 animate-bounce rounded-full bg-muted-foreground/60 [animation-delay:-0.15s]" />
              <span className="size-2 animate-bounce rounded-full bg-muted-foreground/60" />
            </span>
          </div>
        )}
        {!hasAsked && !pending && (
          <div className="flex flex-wrap gap-2 pt-1">
            {SUGGESTED_QUESTIONS.map((question) => (
              <button
                key={question}
                type="button"
                onClick={() => void send(question)}
                className="rounded-full border bg-background px-3 py-1 text-xs text-foreground hover:bg-accent"
              >
                {question}
              </button>
            ))}
          </div>
        )}
      </div>

      {/* eslint-disable-next-line form/one-form-style -- one free-text question, nothing to check before asking */}
      <form onSubmit={onSubmit} className="border-t p-3">
        <div className="flex items-end gap-2">
          <label htmlFor={`${id}-input`} className="sr-only">
            Message
          </label>
          <textarea
            ref={inputRef}
            id={`${id}-input`}
            value={input}
            onChange={(event) => setInput(event.target.value.slice(0, CHAT_MAX_LENGTH))}
            onKeyDown={onKeyDown}
            maxLength={CHAT_MAX_LENGTH}
            disabled={pending}
            rows={2}
            placeholder="Type your message…"
            aria-describedby={counterId}
            className="max-h-32 min-h-11 flex-1 resize-none rounded-md border border-input bg-background px-3 py-2 text-sm placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-50"
          />
          <button
            type="submit"
            disabled={!canSend}
            aria-label="Send message"
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground hover:bg-primary/90 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-50"
          >
            <Send aria-hidden="true" className="size-4" />
          </button>
        </div>
        <p className="mt-1.5 flex justify-between text-xs text-muted-foreground">
          <span>Enter to send, Shift+Enter for a new line</span>
          <span id={counterId} data-testid="chat-counter">
            {input.length}/{CHAT_MAX_LENGTH}
            <span className="sr-only"> characters</span>
          </span>
        </p>
      </form>
    </dialog>
  );
}
