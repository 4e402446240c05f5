import * as React from 'react';
import { Brand } from '../../../components/brand';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

interface AuthLayoutProps {
  title: React.ReactNode;
  description?: React.ReactNode;
  icon?: React.ReactNode;
  children?: React.ReactNode;
  /** Sentence(s) under the card, e.g. links to other account screens. */
  footer?: React.ReactNode;
}

/** The centred card every account screen (login, register, reset, verify) is drawn in. */
export function AuthLayout({ title, description, icon, children, footer }: AuthLayoutProps) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-muted px-4 py-10">
      <Brand className="mb-6" />
      <main className="w-full max-w-md">
        <Card>
          <CardHeader className="text-center">
            {icon && <div className="mx-auto mb-2">{icon}</div>}
            <CardTitle as="h1" className="text-2xl">
              {title}
            </CardTitle>
            {description && <CardDescription>{description}</CardDescription>}
          </CardHeader>
          {children && <CardContent>{children}</CardContent>}
        </Card>
        {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
      </main>
    </div>
  );
}
