import { COMPLIANCE_PROVIDER_NAMES, type ComplianceRule, type ComplianceSmtpReply } from '@contracts/compliance';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDateTime } from '../../../lib/format';

/** The replies of the last 30 days that cite a rule, each linked to the rule it cites. */
export function SmtpRepliesCard({ replies, rules }: { replies: ComplianceSmtpReply[]; rules: ComplianceRule[] }) {
  return (
    <Card data-testid="compliance-smtp-replies">
      <CardHeader>
        <CardTitle className="text-lg">SMTP replies citing these rules</CardTitle>
        <CardDescription>From your MTA and ESP delivery events of the last 30 days.</CardDescription>
      </CardHeader>
      <CardContent>
        {replies.length === 0 ? (
          <p className="text-sm text-muted-foreground">No reply in your delivery events cites one of these rules.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b">
                <th className="py-2 pr-3 font-medium">Code</th>
                <th className="py-2 pr-3 font-medium">Provider</th>
                <th className="py-2 pr-3 font-medium">Count</th>
                <th className="py-2 pr-3 font-medium">Last seen</th>
                <th className="py-2 font-medium">Cites</th>
              </tr>
            </thead>
            <tbody>
              {replies.map((reply) => {
                const id = `${reply.provider}:${reply.requirement}`;
                const rule = rules.find((r) => r.id === id);
                return (
                  <tr key={`${reply.provider}:${reply.code}`} className="border-b align-top last:border-b-0">
                    <td className="py-2 pr-3 font-mono" title={reply.example}>
                      {reply.code}
                    </td>
                    <td className="py-2 pr-3">{COMPLIANCE_PROVIDER_NAMES[reply.provider]}</td>
                    <td className="py-2 pr-3">{reply.count}</td>
                    <td className="py-2 pr-3">{formatDateTime(reply.lastSeenAt)}</td>
                    <td className="py-2">
                      <a className="underline" href={`#${id}`}>
                        {rule?.title ?? reply.requirement}
                      </a>
                      <span className="block text-muted-foreground">{reply.meaning}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
