import type { ComplianceVerdict } from '@contracts/compliance';
import { Pill, type Tone } from '../../../components/ui/pill';

const VERDICTS: Record<ComplianceVerdict, { label: string; tone: Tone }> = {
  met: { label: 'Met', tone: 'good' },
  not_met: { label: 'Not met', tone: 'bad' },
  unknown: { label: 'Unknown', tone: 'none' },
};

export function VerdictPill({ verdict }: { verdict: ComplianceVerdict }) {
  const { label, tone } = VERDICTS[verdict];
  return <Pill tone={tone}>{label}</Pill>;
}
