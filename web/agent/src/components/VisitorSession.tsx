/** The visitor's browser session (widget chats): location and organization (from the address), UTM tags, device and browser, IP. */
import { describeUserAgent, isRecord, str } from '../format';
import { t } from '../i18n';
import { Field } from './Field';
import { Phrase } from './Phrase';

/** The address data's own names, as their licences ask to credit them: the same in every language. */
const SOURCES = { maxmind: 'MaxMind', dbip: 'IP Geolocation by DB-IP', routeviews: 'RouteViews' } as const;

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;
/** Each tag's row is labelled with its parameter's name as the page's URL has it (utm_source): code, the same in every language. */
const utmParameter = (key: string): string => 'utm_' + key;

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
    <section aria-label={t('workspace.session.title')}>
      <h4>{t('workspace.session.title')}</h4>
      <dl className="fields">
        <Field label={t('workspace.session.location')} value={place || null} />
        <Field label={t('workspace.session.organization')} value={organization} />
        <Field label={t('workspace.session.device')} value={device} />
        <Field label={t('workspace.session.ip')} value={str(session.ip) ?? str(session.ip_addr)} />
        <Field label={t('workspace.session.visits')} value={str(session.visits)} />
        {utmRows.map(([k, v]) => (
          <Field key={k} label={utmParameter(k)} value={v} />
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
      <Phrase
        text={t('workspace.session.credit')}
        parts={{
          maxmind: (
            <a href="https://www.maxmind.com" target="_blank" rel="noreferrer">
              {SOURCES.maxmind}
            </a>
          ),
          dbip: (
            <a href="https://db-ip.com" target="_blank" rel="noreferrer">
              {SOURCES.dbip}
            </a>
          ),
          routeviews: (
            <a href="https://www.routeviews.org" target="_blank" rel="noreferrer">
              {SOURCES.routeviews}
            </a>
          ),
        }}
      />
    </p>
  );
}
