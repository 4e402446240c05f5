import { Construction } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card';

/**
 * The honest placeholder of a screen whose real content is still being built: it says so and what
 * the page will do, and never shows sample figures that could be mistaken for the user's data.
 */
export function NotAvailableYet({ children }: { children: React.ReactNode }) {
  return (
    <Card className="mx-auto max-w-2xl">
      <CardHeader className="items-center text-center">
        <Construction className="mb-2 size-10 text-muted-foreground" aria-hidden="true" />
        <CardTitle>Not available yet</CardTitle>
        <CardDescription className="text-base">{children}</CardDescription>
      </CardHeader>
      <CardContent />
    </Card>
  );
}
