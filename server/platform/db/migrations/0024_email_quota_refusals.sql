CREATE TABLE "email_quota_refusals" (
	"user_id" integer NOT NULL,
	"source" text NOT NULL,
	"month" date NOT NULL,
	"events" integer NOT NULL,
	"requests" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "email_quota_refusals_user_id_source_pk" PRIMARY KEY("user_id","source")
);
--> statement-breakpoint
ALTER TABLE "email_quota_refusals" ADD CONSTRAINT "email_quota_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;