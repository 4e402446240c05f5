CREATE TABLE "dmarc_received_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "warnings" jsonb;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "received_file_id" integer;--> statement-breakpoint
ALTER TABLE "dmarc_received_files" ADD CONSTRAINT "dmarc_received_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_received_file_id_dmarc_received_files_id_fk" FOREIGN KEY ("received_file_id") REFERENCES "public"."dmarc_received_files"("id") ON DELETE set null ON UPDATE no action;