import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import type { LegalDocument } from '@content/legal/legal-document';
import { DocsLayout, DocsSection, TEXT_LINK } from '../../components/docs-layout';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

function BackToHome() {
  return (
    <Button asChild variant="outline">
      <Link to={PATHS.home}>
        <ArrowLeft aria-hidden="true" />
        Back to Home
      </Link>
    </Button>
  );
}

/**
 * A legal page (part 2, section 2, "Public documentation pages"): the documentation pages' header and
 * layout, the date it was last updated, its numbered sections, a link to the other legal page, and
 * Back to Home.
 */
export function LegalPage({
  document,
  testId,
  other,
}: {
  document: LegalDocument;
  testId: string;
  other: { label: string; to: string };
}) {
  return (
    <DocsLayout
      testId={testId}
      title={document.title}
      toc={document.sections.map((section) => ({ id: section.id, label: section.title }))}
      intro={
        <div className="space-y-4">
          <p className="text-sm font-medium text-foreground" data-testid="last-updated">
            Last updated: {document.lastUpdated}
          </p>
          <p>{document.intro}</p>
          <BackToHome />
        </div>
      }
    >
      {document.sections.map((section) => (
        <DocsSection key={section.id} id={section.id} title={section.title}>
          {section.paragraphs.map((text) => (
            <p key={text} className="leading-relaxed">
              {text}
            </p>
          ))}
          {section.list && (
            <ul className="list-disc space-y-1.5 pl-6 leading-relaxed">
              {section.list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          )}
          {section.after?.map((text) => (
            <p key={text} className="leading-relaxed">
              {text}
            </p>
          ))}
        </DocsSection>
      ))}
      <div className="flex flex-wrap items-center gap-4 border-t pt-8">
        <BackToHome />
        <Link to={other.to} className={TEXT_LINK}>
          {other.label}
        </Link>
      </div>
    </DocsLayout>
  );
}
