CREATE TABLE "google_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"session_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postmaster_stats" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"domain" text NOT NULL,
	"date" date NOT NULL,
	"user_reported_spam_ratio" double precision,
	"user_reported_spam_ratio_lower_bound" double precision,
	"user_reported_spam_ratio_upper_bound" double precision,
	"spf_success_ratio" double precision,
	"dkim_success_ratio" double precision,
	"dmarc_success_ratio" double precision,
	"inbound_encryption_ratio" double precision,
	"outbound_encryption_ratio" double precision,
	"domain_reputation" text,
	"ip_reputations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"delivery_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"spammy_feedback_loops" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "google_oauth_states" ADD CONSTRAINT "google_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postmaster_stats" ADD CONSTRAINT "postmaster_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postmaster_stats" ADD CONSTRAINT "postmaster_stats_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "google_oauth_states_expires_at_idx" ON "google_oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "google_oauth_states_user_id_idx" ON "google_oauth_states" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "postmaster_stats_user_domain_date_key" ON "postmaster_stats" USING btree ("user_id","domain","date");--> statement-breakpoint
CREATE INDEX "postmaster_stats_integration_id_idx" ON "postmaster_stats" USING btree ("integration_id");