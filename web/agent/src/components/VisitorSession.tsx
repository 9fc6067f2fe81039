/** The visitor's browser session (widget chats): location and organization (from the address), UTM tags, device and browser, IP. */
import { describeUserAgent, isRecord, str } from '../format';
import { Field } from './Field';

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

export function VisitorSession({ session }: { session: Record<string, unknown> }) {
  const geo = isRecord(session.geoip) ? session.geoip : {};
  const utm = isRecord(session.utm) ? session.utm : isRecord(session.utm_json) ? session.utm_json : {};
  const ua = str(session.user_agent);
  const organization = str(geo.organization);
  const place = [str(geo.city), str(geo.region), str(geo.country)].filter(Boolean).join(', ');
  const device = [str(session.device), str(session.browser), str(session.os)].filter(Boolean).join(' · ') || (ua ? describeUserAgent(ua) : null);
  const utmRows = UTM_KEYS.map((k) => [k, str(utm[k])] as const).filter(([, v]) => v !== null);
  if (!place && !organization && !device && utmRows.length === 0 && !str(session.ip)) return null;
  return (
    <section aria-label="Session">
      <h4>Session</h4>
      <dl className="fields">
        <Field label="Location" value={place || null} />
        <Field label="Organization" value={organization} />
        <Field label="Device" value={device} />
        <Field label="IP address" value={str(session.ip) ?? str(session.ip_addr)} />
        <Field label="Visits" value={str(session.visits)} />
        {utmRows.map(([k, v]) => (
          <Field key={k} label={`utm_${k}`} value={v} />
        ))}
      </dl>
      {place || organization ? <GeoCredit /> : null}
    </section>
  );
}

/** The credit the shipped address data asks for where its results are shown (README, "Data shipped with Parley"). */
function GeoCredit() {
  return (
    <p className="muted small">
      Location from GeoLite2 by{' '}
      <a href="https://www.maxmind.com" target="_blank" rel="noreferrer">
        MaxMind
      </a>
      ; organization from{' '}
      <a href="https://db-ip.com" target="_blank" rel="noreferrer">
        IP Geolocation by DB-IP
      </a>{' '}
      and{' '}
      <a href="https://www.routeviews.org" target="_blank" rel="noreferrer">
        RouteViews
      </a>
      .
    </p>
  );
}
