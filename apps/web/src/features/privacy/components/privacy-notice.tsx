import { PRIVACY_NOTICE } from '@portal/contract';

/** The privacy notice's words, section by section, under headings of the given level. */
export function PrivacyNotice({ level }: { level: 3 | 4 }) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <div className="space-y-3">
      {PRIVACY_NOTICE.map(({ heading, text }) => (
        <div key={heading}>
          <Heading className="text-sm font-semibold text-slate-900">{heading}</Heading>
          <p className="mt-1 text-sm text-slate-700">{text}</p>
        </div>
      ))}
    </div>
  );
}
