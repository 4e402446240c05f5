/** A legal page's text: numbered sections of paragraphs and lists. Plain data, rendered by web/features/legal. */
export interface LegalSection {
  /** The anchor: /terms-of-service#plans-and-billing. */
  id: string;
  title: string;
  /** Before the list. */
  paragraphs: string[];
  list?: string[];
  /** After the list. */
  after?: string[];
}

export interface LegalDocument {
  title: string;
  /** As the spec dates it (part 2, section 2). */
  lastUpdated: string;
  intro: string;
  sections: LegalSection[];
}
