CREATE TABLE "inbox_test_placements" (
	"id" serial PRIMARY KEY NOT NULL,
	"test_id" integer NOT NULL,
	"seed_id" integer,
	"is_analyser" boolean DEFAULT false NOT NULL,
	"provider" text NOT NULL,
	"mailbox_system" text NOT NULL,
	"region" text NOT NULL,
	"country" text NOT NULL,
	"address" text,
	"placement" text,
	"folder" text,
	"tab" text,
	"note" text,
	"found_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inbox_test_reports" (
	"test_id" integer PRIMARY KEY NOT NULL,
	"score" real NOT NULL,
	"report" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seed_mailboxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"provider" text NOT NULL,
	"mailbox_system" text NOT NULL,
	"region" text NOT NULL,
	"country" text NOT NULL,
	"imap_host" text NOT NULL,
	"imap_port" integer NOT NULL,
	"imap_secure" boolean NOT NULL,
	"imap_tls_reject_unauthorized" boolean DEFAULT true NOT NULL,
	"imap_user" text NOT NULL,
	"password_encrypted" text NOT NULL,
	"inbox_folder" text DEFAULT 'INBOX' NOT NULL,
	"spam_folders" text[] NOT NULL,
	"delete_found" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_poll_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seed_mailboxes_address_unique" UNIQUE("address")
);
--> statement-breakpoint
ALTER TABLE "inbox_tests" ADD COLUMN "inbound_message_id" integer;--> statement-breakpoint
ALTER TABLE "inbox_tests" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbox_tests" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "inbox_test_placements" ADD CONSTRAINT "inbox_test_placements_test_id_inbox_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."inbox_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_test_placements" ADD CONSTRAINT "inbox_test_placements_seed_id_seed_mailboxes_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."seed_mailboxes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_test_reports" ADD CONSTRAINT "inbox_test_reports_test_id_inbox_tests_id_fk" FOREIGN KEY ("test_id") REFERENCES "public"."inbox_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_test_placements_seed" ON "inbox_test_placements" USING btree ("test_id","seed_id");--> statement-breakpoint
CREATE INDEX "inbox_test_placements_test_idx" ON "inbox_test_placements" USING btree ("test_id");--> statement-breakpoint
CREATE INDEX "inbox_tests_status_idx" ON "inbox_tests" USING btree ("status","created_at");